/**
 * ClickDestinations over the messaging table: one BatchGetItem of the token's job item and, when the
 * token says the recipient had their own destination, its chunk's RECIPIENTS item (their kept values:
 * messaging-recipient-sends.ts). Both expire with the job (`expiresAt`, 90 days); dynalite keeps
 * expired items, so the expiry is checked here too.
 */
import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ClickReference } from '../../clicks/click-token';
import type { ClickDestinations, ClickTarget } from '../../clicks/ports';
import type { TemplateContent } from '../../templates/template-content.schema';
import { classifyStoreFaults } from './dynamodb-errors';
import { decodeJob, decodeRecipients } from './messaging-job-items';
import { messagingKeys } from './messaging-table';

type Item = Record<string, unknown>;
const MAX_ATTEMPTS = 3;

const trackedUrlIn = (content: TemplateContent | undefined, buttonIndex: number): string | undefined => {
  const button = content?.buttons?.find((candidate) => candidate.index === buttonIndex);
  return button?.type === 'url' ? button.trackedUrl : undefined;
};

const live = (item: Item | undefined, now: Date): item is Item =>
  item !== undefined && !(typeof item.expiresAt === 'number' && item.expiresAt * 1000 <= now.getTime());

/**
 * @example
 * const destinations = new DynamoDbClickDestinations(documentClient, 'messaging');
 * await destinations.targetOf({ jobId: 'pub_1', chunkIndex: 0, index: 7, buttonIndex: 0, scope: 'job' }, new Date());
 * // { url: 'https://shop.example/p/42', organizationId: 'org_1' }
 */
export class DynamoDbClickDestinations implements ClickDestinations {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(client);
  }

  async targetOf(reference: ClickReference, now: Date): Promise<ClickTarget | undefined> {
    const jobKey = messagingKeys.job(reference.jobId);
    const recipientsKey = reference.scope === 'recipient' ? messagingKeys.recipients(reference.jobId, reference.chunkIndex) : undefined;
    const items = await this.read(recipientsKey ? [jobKey, recipientsKey] : [jobKey]);
    const jobItem = items.find((item) => item.sk === jobKey.sk);
    if (!live(jobItem, now)) return undefined;
    const job = decodeJob(jobItem);
    if (job.kind !== 'template') return undefined;
    const url = recipientsKey
      ? this.recipientUrl(
          items.find((item) => item.sk === recipientsKey.sk),
          reference,
          now,
        )
      : trackedUrlIn(job.template.content, reference.buttonIndex);
    if (url === undefined) return undefined;
    return { url, organizationId: job.organizationId, ...(job.campaignId === undefined ? {} : { campaignId: job.campaignId }) };
  }

  private recipientUrl(item: Item | undefined, reference: ClickReference, now: Date): string | undefined {
    if (!live(item, now)) return undefined;
    const recipient = decodeRecipients(item).find((candidate) => candidate.index === reference.index);
    return trackedUrlIn(recipient?.send?.content, reference.buttonIndex);
  }

  /** One request; keys DynamoDB left unprocessed (throttling) are asked again, a few times. */
  private async read(keys: Item[]): Promise<Item[]> {
    const found: Item[] = [];
    let pending = keys;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && pending.length > 0; attempt += 1) {
      const result = await this.client.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending } } }));
      found.push(...(result.Responses?.[this.tableName] ?? []));
      pending = (result.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as Item[];
    }
    return found;
  }
}
