/**
 * Meta's status events on broadcast recipients, in the job's tally items (messaging-table.ts; the
 * sets of messaging-tally-facts.ts). Per call (a webhook batch's events of one job):
 *
 * 1. one consistent BatchGetItem of the tally items the events concern (a read costs a fifth of a
 *    write), which says per event whether it adds anything;
 * 2. per recipient whose outcome carried no message id (tally code `0U`, or a failed or cancelled
 *    outcome), the message id's record (put if absent), before the facts, so a crash in between
 *    is mended by the redelivery, which finds the fact new again; the id also rides in the facts'
 *    write (`em`), for the recipients list, as it does while the recipient has no outcome code yet;
 * 3. one UpdateItem per tally item that gains anything: `ADD` of the new set members (idempotent,
 *    order-independent, never lowering what a concurrent batch added). Nothing new, nothing written.
 *
 * The worker's outcome codes (`r<00000>`, written `if_not_exists`) and these sets never touch each
 * other's attributes; the summary takes the higher of the two codes (messaging-tally-items.ts).
 */
import { BatchGetCommand, GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { JobOwnerRecord, LedgerDeliveryStore, LedgerLocation, QuickReplyButton, StatusApplyResult, StatusEvent } from '../../delivery/ports';
import { addedFactResult, TALLY_BUCKET_SIZE } from '../../delivery/recipient-status';
import { callingCodeOf } from '../../recipients/calling-code';
import { classifyStoreFaults } from './dynamodb-errors';
import { locateLedgerMessage, recordLedgerMessage } from './ledger-message-ids';
import { addEvent, addMessageId, factMembersUpdate, slotStatesOf, type FactMembers, type SlotState } from './messaging-tally-facts';
import { expiresAtFrom, messagingKeys } from './messaging-table';

type Item = Record<string, unknown>;
type LocatedEvent = { location: LedgerLocation; event: StatusEvent };

/** BatchGetItem takes at most 100 keys; unprocessed ones are asked again this many times. */
const BATCH_GET_KEYS = 100;
const BATCH_GET_ATTEMPTS = 8;

export class DynamoDbLedgerDeliveryStore implements LedgerDeliveryStore {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  async jobOwner(jobId: string): Promise<JobOwnerRecord | undefined> {
    const result = await this.documentClient.send(
      new GetCommand({
        TableName: this.tableName,
        Key: messagingKeys.job(jobId),
        ProjectionExpression:
          'organizationId, phoneNumberId, totalRecipients, campaignId, totalChunks, chunkSize, attributionWindowHours, #template.quickReplies',
        ExpressionAttributeNames: { '#template': 'template' },
      }),
    );
    const { organizationId, phoneNumberId, totalRecipients, campaignId, totalChunks, chunkSize, attributionWindowHours, template } = result.Item ?? {};
    if (typeof organizationId !== 'string' || typeof phoneNumberId !== 'string' || typeof totalRecipients !== 'number') return undefined;
    // A campaign's chunks each start at their own chunk's first index (docs/CAMPAIGNS.md "How a campaign runs"): its indexes span its chunks.
    const span = typeof campaignId === 'string' && typeof totalChunks === 'number' && typeof chunkSize === 'number' ? totalChunks * chunkSize : totalRecipients;
    const quickReplies = (template as { quickReplies?: unknown } | undefined)?.quickReplies;
    return {
      organizationId,
      phoneNumberId,
      recipientCount: span,
      ...(typeof campaignId === 'string' ? { campaignId } : {}),
      // What attribution reads (docs/OUTCOMES.md "Attribution"), written by the job's accept (broadcast-job.ts).
      ...(typeof attributionWindowHours === 'number' ? { attributionWindowHours } : {}),
      ...(Array.isArray(quickReplies) ? { quickReplies: quickReplies as QuickReplyButton[] } : {}),
    };
  }

  async locateMessage(messageId: string): Promise<LedgerLocation | undefined> {
    return locateLedgerMessage(this.documentClient, this.tableName, messageId);
  }

  async applyEvents(jobId: string, events: readonly LocatedEvent[]): Promise<StatusApplyResult[]> {
    const buckets = [...new Set(events.map(({ location }) => Math.floor(location.index / TALLY_BUCKET_SIZE)))];
    const stored = await this.readTallies(jobId, buckets);
    const states = new Map(buckets.map((bucket) => [bucket, slotStatesOf(stored.get(messagingKeys.tally(jobId, bucket).sk))]));
    const members = new Map(buckets.map((bucket): [number, FactMembers] => [bucket, { numbers: {}, strings: {} }]));
    const messageRecords: LocatedEvent[] = [];
    const results = events.map(({ location, event }): StatusApplyResult => {
      const bucket = Math.floor(location.index / TALLY_BUCKET_SIZE);
      const slot = location.index - bucket * TALLY_BUCKET_SIZE;
      const slots = states.get(bucket)!;
      let state = slots.get(slot);
      if (!state) slots.set(slot, (state = { times: {}, pricing: {} } satisfies SlotState));
      const deliveredBefore = state.times.delivered !== undefined;
      // The recipient's calling code from Meta's recipient id (a number, or a BSUID's country): the tally carries it for the campaign's cost.
      if (!addEvent(state, slot, event, callingCodeOf(event.recipientId), members.get(bucket)!)) return 'unchanged';
      const outcome = stored.get(messagingKeys.tally(jobId, bucket).sk)?.[messagingKeys.tallyAttribute(location.index)];
      // A SENT or held outcome (1S, 1H) named its message id with the outcome. The id also rides in the
      // item for the recipients list (the ledger entry is the worker's to write) while no outcome code is
      // there yet: a send whose answer is lost may have all its events before its UNKNOWN outcome.
      if (typeof outcome === 'string' && !outcome.startsWith('1')) messageRecords.push({ location, event });
      if (outcome === undefined || messageRecords.at(-1)?.location === location) addMessageId(state, slot, event.messageId, members.get(bucket)!);
      return addedFactResult(event.stage, deliveredBefore);
    });
    await Promise.all(
      messageRecords.map(({ location, event }) =>
        recordLedgerMessage(this.documentClient, this.tableName, event.messageId, location, expiresAtFrom(event.timestamp)),
      ),
    );
    await this.writeMembers(jobId, members, expiresAtFrom(events[0]?.event.timestamp ?? new Date()));
    return results;
  }

  /** One UpdateItem per item with new members, all settled before the first failure is thrown (no write left running). */
  private async writeMembers(jobId: string, members: Map<number, FactMembers>, expiresAt: number): Promise<void> {
    const updates = [...members].flatMap(([bucket, added]) => {
      const update = factMembersUpdate(messagingKeys.tally(jobId, bucket), added, expiresAt);
      return update ? [update] : [];
    });
    const settled = await Promise.allSettled(updates.map((update) => this.documentClient.send(new UpdateCommand({ TableName: this.tableName, ...update }))));
    const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** The tally items of these buckets, by sort key (consistent: a stale read would only write again, but would miss duplicates). */
  private async readTallies(jobId: string, buckets: readonly number[]): Promise<Map<string, Item>> {
    const items = new Map<string, Item>();
    for (let start = 0; start < buckets.length; start += BATCH_GET_KEYS) {
      let keys: Array<Record<string, unknown>> = buckets.slice(start, start + BATCH_GET_KEYS).map((bucket) => messagingKeys.tally(jobId, bucket));
      for (let attempt = 0; keys.length > 0; attempt += 1) {
        if (attempt >= BATCH_GET_ATTEMPTS) throw new Error('Tally items still unprocessed after retries');
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
        const result = await this.documentClient.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: true } } }));
        for (const item of result.Responses?.[this.tableName] ?? []) items.set(String(item.sk), item);
        keys = result.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
      }
    }
    return items;
  }
}
