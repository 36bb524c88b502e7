/**
 * One claim per person per campaign in the messaging table (keys: campaign-items.ts): a conditional
 * put of the person's item with the index offered; when it exists, a consistent read gives the index
 * that holds the person. Offering the same index again (a redelivered page) answers that index, so a
 * page's claims are idempotent. A page's claims run with bounded concurrency.
 */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PersonClaims } from '../../campaigns/ports';
import { systemClock, type Clock } from '../../ports/clock';
import { campaignKeys, decodeClaimIndex, personClaimItem } from './campaign-items';
import { classifyStoreFaults } from './dynamodb-errors';
import { expiresAtFrom } from './messaging-table';
import { isConditionFailure, type MessagingTable } from './messaging-table-requests';

/** Claims in flight at once: a 1,000-member page is 20 rounds of writes, and one call never floods a client's sockets. */
export const CLAIM_CONCURRENCY = 50;

export class DynamoDbPersonClaims implements PersonClaims {
  private readonly table: MessagingTable;

  constructor(
    client: DynamoDBDocumentClient,
    tableName: string,
    private readonly clock: Clock = systemClock,
    private readonly concurrency: number = CLAIM_CONCURRENCY,
  ) {
    classifyStoreFaults(client);
    this.table = { client, tableName };
  }

  async claimPersons(campaignId: string, claims: ReadonlyArray<{ personKey: string; index: number }>): Promise<Map<string, number>> {
    // A claim expires with the campaign's job (90 days), counted from the first write.
    const expiresAt = expiresAtFrom(this.clock.now());
    const held = new Map<string, number>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < claims.length) {
        const claim = claims[next]!;
        next += 1;
        held.set(claim.personKey, await this.claim(campaignId, claim.personKey, claim.index, expiresAt));
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, claims.length) }, worker));
    // In the order asked, whatever order the writes finished in.
    return new Map(claims.map(({ personKey }) => [personKey, held.get(personKey)!]));
  }

  private async claim(campaignId: string, personKey: string, index: number, expiresAt: number): Promise<number> {
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: personClaimItem(campaignId, personKey, index, expiresAt),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return index;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const stored = await this.table.client.send(
      new GetCommand({
        TableName: this.table.tableName,
        Key: campaignKeys.personClaim(campaignId, personKey),
        ConsistentRead: true,
        ProjectionExpression: 'pk, #index',
        ExpressionAttributeNames: { '#index': 'index' },
      }),
    );
    if (!stored.Item) throw new Error(`Claim of a person in campaign ${campaignId} refused, then not found`);
    return decodeClaimIndex(stored.Item);
  }
}
