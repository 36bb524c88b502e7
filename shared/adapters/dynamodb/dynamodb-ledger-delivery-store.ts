/**
 * Meta's status events on the broadcast ledger (messaging table, keys in messaging-table.ts).
 * At most two single-item writes per event, each idempotent and order-independent:
 *
 * 1. the ledger entry: `SET <stage>At = if_not_exists(…)` (+ Meta's error on failed, + the message
 *    id when the entry had none, then its WAMID record), only on an existing entry; the entry is in
 *    no index, so this is one write unit;
 * 2. the recipient's tally code: the code of the entry's facts after the event (status and
 *    pricing, tallyCodeOfFacts, from the update's old image: no read), `SET r = :code` only while
 *    the stored code is smaller (a refused condition means this code or a larger one is already
 *    there: nothing to do); skipped when that code is a plain 1S on a SENT entry, whose outcome
 *    code is already 1S.
 *
 * The order matters for crashes: facts first, so a redelivered event that finds its facts already
 * written still moves the tally.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ApplyResult, LedgerDeliveryStore, StatusEvent } from '../../delivery/ports';
import { factsAfterEvent, tallyCodeOfFacts, tallyCodes, type DeliveryFacts, type TallyCode } from '../../delivery/recipient-status';
import { callingCodeOf } from '../../recipients/calling-code';
import { classifyStoreFaults } from './dynamodb-errors';
import { readPage } from './ledger-pages';
import { ledgerPageKey } from './ledger-page-items';
import { locateLedgerMessage, recordLedgerMessage } from './ledger-message-ids';
import { decodeDeliveryFacts, deliveryFactsUpdate } from './messaging-ledger-items';
import { expiresAtFrom, messagingKeys, tallySlotOf } from './messaging-table';

const isConditionFailure = (error: unknown) => error instanceof ConditionalCheckFailedException;

type Location = { jobId: string; chunkIndex: number; index: number };
/** The entry before the event's update (its old image): its outcome, facts and its recipient's calling code. */
type EntryBefore = { status?: unknown; held?: unknown; facts: DeliveryFacts; callingCode?: string };

export class DynamoDbLedgerDeliveryStore implements LedgerDeliveryStore {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  async jobOwner(jobId: string): Promise<{ organizationId: string; phoneNumberId: string } | undefined> {
    const result = await this.documentClient.send(
      new GetCommand({ TableName: this.tableName, Key: messagingKeys.job(jobId), ProjectionExpression: 'organizationId, phoneNumberId' }),
    );
    const { organizationId, phoneNumberId } = result.Item ?? {};
    if (typeof organizationId !== 'string' || typeof phoneNumberId !== 'string') return undefined;
    return { organizationId, phoneNumberId };
  }

  async locateMessage(messageId: string): Promise<Location | undefined> {
    return locateLedgerMessage(this.documentClient, this.tableName, messageId);
  }

  async applyEvent(location: Location, event: StatusEvent): Promise<ApplyResult> {
    const before = await this.addFacts(location, event);
    if (!before) return 'not-found';
    // An outcome without the worker's message id (UNKNOWN) learns it from the events: recorded (put
    // if absent) on each of them, so a worker that crashed after the send still gets its record. A
    // SENDING entry's worker records it with the outcome.
    if (before.status !== 'SENT' && before.status !== 'SENDING') await recordLedgerMessage(this.documentClient, this.tableName, event.messageId, location, expiresAtFrom(event.timestamp));
    // `sent` raises the tally to 1S, which a SENT outcome's own code already is (the worker writes
    // it, and the chunk's reconcile when a worker crashed first): that write would change nothing.
    // The recipient's calling code from the same old image (no read): the tally code carries it for the campaign's cost.
    const code = tallyCodeOfFacts(factsAfterEvent(before.facts, event), before.callingCode);
    if (code && !this.tallyAlreadyCovered(before, event, code)) await this.raiseTally(location, code, event.timestamp);
    return 'applied';
  }

  /**
   * No tally write is needed (a refused one still costs its write unit) when
   * - the code is a plain 1S on a SENT entry (not held): the outcome's own code, which the worker
   *   writes, or the chunk's reconcile after a crash; a held entry's 1H is raised by Meta's `sent`;
   * - the event's fact is new and changes nothing in the code (a `sent` or `delivered` arriving
   *   after a higher stage, without new pricing): the earlier events' writes carry that code, and
   *   if one of them failed, its batch failed and comes back, finds its fact present and writes.
   * A redelivered event (its fact already there) always writes: it may mend a crash.
   */
  private tallyAlreadyCovered(before: EntryBefore, event: StatusEvent, code: TallyCode): boolean {
    if (code === tallyCodes.sent && before.status === 'SENT' && before.held !== true) return true;
    return before.facts[`${event.stage}At`] === undefined && tallyCodeOfFacts(before.facts, before.callingCode) === code;
  }

  /**
   * The entry's outcome before the update, or undefined when there is no entry. An entry on a
   * ledger page (ledger-page-items.ts) has no per-recipient item: its facts get one (written only
   * once the page shows the entry), and its outcome comes from the page.
   */
  private async addFacts(location: Location, event: StatusEvent): Promise<EntryBefore | undefined> {
    const existing = await this.updateFacts(location, event, true);
    // An older per-recipient entry has its status; a paged entry's facts item has none.
    if (existing?.status !== undefined) return existing;
    const paged = (await readPage({ client: this.documentClient, tableName: this.tableName }, ledgerPageKey(location.jobId, location.chunkIndex, location.index))).get(location.index);
    if (!paged) return undefined;
    const before = existing ?? (await this.updateFacts(location, event, false));
    return { status: paged.entry.status, held: paged.entry.held, facts: before?.facts ?? {}, callingCode: callingCodeOf(paged.entry.to) };
  }

  private async updateFacts({ jobId, chunkIndex, index }: Location, event: StatusEvent, onlyExisting: boolean): Promise<EntryBefore | undefined> {
    const facts = deliveryFactsUpdate(event);
    const names: Record<string, string> = facts.names;
    const values: Record<string, unknown> = { ...facts.values, ':messageId': event.messageId };
    const assignments = [...facts.set, 'messageId = if_not_exists(messageId, :messageId)'];
    try {
      const result = await this.documentClient.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: messagingKeys.ledger(jobId, chunkIndex, index),
          UpdateExpression: `SET ${assignments.join(', ')}`,
          // Never creates an entry: an event for a recipient we have no claim of is not ours to record.
          ...(onlyExisting ? { ConditionExpression: 'attribute_exists(pk)' } : {}),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          // Free: what the entry held decides the two writes that may follow.
          ReturnValues: 'ALL_OLD',
        }),
      );
      const old = result.Attributes ?? {};
      return { status: old.status, held: old.held, facts: decodeDeliveryFacts(old), callingCode: typeof old.to === 'string' ? callingCodeOf(old.to) : undefined };
    } catch (error) {
      if (onlyExisting && isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  private async raiseTally({ jobId, index }: Location, code: TallyCode, at: Date): Promise<void> {
    const slot = tallySlotOf(jobId, index);
    try {
      await this.documentClient.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: slot.key,
          UpdateExpression: 'SET #r = :code, expiresAt = if_not_exists(expiresAt, :expiresAt)',
          ConditionExpression: 'attribute_not_exists(#r) OR #r < :code',
          ExpressionAttributeNames: { '#r': slot.attribute },
          ExpressionAttributeValues: { ':code': code, ':expiresAt': expiresAtFrom(at) },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}

const prefixed = (attributes: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(attributes).map(([name, value]) => [`:${name}`, value]));
