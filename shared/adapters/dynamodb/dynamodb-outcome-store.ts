/**
 * OutcomeStore over the messaging table: each outcome is one UpdateItem `ADD` of its member to the
 * recipient's tally item (messaging-tally-outcomes.ts), asking for the set's old value
 * (`UPDATED_OLD`) to tell a new fact from a duplicate without a read.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LedgerApplyResult, LedgerLocation } from '../../delivery/ports';
import { TALLY_BUCKET_SIZE } from '../../delivery/recipient-status';
import type { OutcomeEvent, OutcomeFacts } from '../../outcomes/outcome-facts';
import type { ClickRecorded, OutcomeStore } from '../../outcomes/ports';
import { classifyStoreFaults } from './dynamodb-errors';
import { outcomeMemberOf, outcomeSlotsOf, setHolds, slotHasMember } from './messaging-tally-outcomes';
import { expiresAtFrom, messagingKeys } from './messaging-table';

/**
 * @example
 * const outcomes = new DynamoDbOutcomeStore(documentClient, 'messaging');
 * await outcomes.recordOutcomes('pub_1', [{ location: { jobId: 'pub_1', chunkIndex: 0, index: 7 }, event: { kind: 'click', at: new Date() } }]);
 */
export class DynamoDbOutcomeStore implements OutcomeStore {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(documentClient);
  }

  async recordOutcomes(jobId: string, events: ReadonlyArray<{ location: LedgerLocation; event: OutcomeEvent }>): Promise<LedgerApplyResult[]> {
    const settled = await Promise.allSettled(events.map(({ location, event }) => this.recordOne(jobId, location.index, event)));
    const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((outcome) => (outcome as PromiseFulfilledResult<LedgerApplyResult>).value);
  }

  async outcomesOf(jobId: string, index: number): Promise<OutcomeFacts> {
    const bucket = Math.floor(index / TALLY_BUCKET_SIZE);
    const { Item } = await this.documentClient.send(
      new GetCommand({ TableName: this.tableName, Key: messagingKeys.tally(jobId, bucket), ConsistentRead: true }),
    );
    return (Item && outcomeSlotsOf(Item).get(index - bucket * TALLY_BUCKET_SIZE)) ?? {};
  }

  async recordClick(location: LedgerLocation, at: Date): Promise<ClickRecorded> {
    const slot = location.index % TALLY_BUCKET_SIZE;
    const { member, old } = await this.addMember(location.jobId, location.index, { kind: 'click', at });
    if (setHolds(old, member)) return 'unchanged';
    return slotHasMember(old, slot) ? 'again' : 'first';
  }

  private async recordOne(jobId: string, index: number, event: OutcomeEvent): Promise<LedgerApplyResult> {
    const { member, old } = await this.addMember(jobId, index, event);
    return setHolds(old, member) ? 'unchanged' : 'applied';
  }

  /** The one ADD of an outcome's member, answering the set as it was before. */
  private async addMember(jobId: string, index: number, event: OutcomeEvent): Promise<{ member: number | string; old: unknown }> {
    const bucket = Math.floor(index / TALLY_BUCKET_SIZE);
    const { set, member } = outcomeMemberOf(index - bucket * TALLY_BUCKET_SIZE, event);
    const result = await this.documentClient.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: messagingKeys.tally(jobId, bucket),
        UpdateExpression: 'ADD #set :member SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
        ExpressionAttributeNames: { '#set': set },
        ExpressionAttributeValues: { ':member': new Set([member]), ':expiresAt': expiresAtFrom(event.at) },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    return { member, old: result.Attributes?.[set] };
  }
}
