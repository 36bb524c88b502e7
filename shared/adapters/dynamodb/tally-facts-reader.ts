/**
 * Meta's facts of a chunk's recipients for the readers (the recipients list and CSV, the follow-up
 * audience): the facts in the job's tally items (messaging-tally-facts.ts), merged with the facts
 * earlier versions stored on the ledger entries themselves (the earliest time of each stage wins),
 * and the message id an event taught an entry whose outcome had none (UNKNOWN); with the outcome
 * facts of the same items (messaging-tally-outcomes.ts: replies, taps, clicks), read in the same query.
 */
import type { LedgerEntry } from '../../broadcast/broadcast-stores';
import { mergeDeliveryFacts, type DeliveryFacts, type TallyCode } from '../../delivery/recipient-status';
import type { OutcomeFacts } from '../../outcomes/outcome-facts';
import { messagingKeys, tallySlotOf } from './messaging-table';
import { queryAll, type MessagingTable } from './messaging-table-requests';
import { tallyFactsOf, tallyOutcomesOf } from './messaging-tally-items';
import { waitingCodesOf } from './messaging-tally-waiting';

type ChunkRecord = { entry: LedgerEntry; facts: DeliveryFacts };

/**
 * The records with the tally items' facts merged in, and the outcome facts of the recipients that
 * have any among the records' and `alsoIndexes`' (a chunk's listed recipients: a held-out one has
 * no ledger entry), by index: one consistent Query over the tally items every index given falls in
 * (a chunk's 1,000 recipients: 20 items).
 *
 * @example const { ledger, outcomes } = await withTallyFactsAndOutcomes(table, jobId, records, listed.map(({ index }) => index));
 */
export async function withTallyFactsAndOutcomes(
  table: MessagingTable,
  jobId: string,
  records: readonly ChunkRecord[],
  alsoIndexes: readonly number[],
): Promise<{ ledger: ChunkRecord[]; outcomes: Map<number, OutcomeFacts>; waiting: Map<number, TallyCode> }> {
  const indexes = [...records.map(({ entry }) => entry.index), ...alsoIndexes];
  if (indexes.length === 0) return { ledger: [], outcomes: new Map(), waiting: new Map() };
  const first = tallySlotOf(jobId, Math.min(...indexes)).key.sk;
  const last = tallySlotOf(jobId, Math.max(...indexes)).key.sk;
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
    ExpressionAttributeValues: { ':pk': messagingKeys.jobPartition(jobId), ':first': first, ':last': last },
    ConsistentRead: true,
  });
  const found = new Map<number, { facts: DeliveryFacts; messageId?: string }>();
  const wanted = new Set(indexes);
  const outcomes = new Map<number, OutcomeFacts>();
  const waiting = new Map<number, TallyCode>();
  const claimed = new Set(records.map(({ entry }) => entry.index));
  for (const item of items) {
    for (const [index, slot] of tallyFactsOf(item)) found.set(index, slot);
    for (const [index, facts] of tallyOutcomesOf(item)) if (wanted.has(index)) outcomes.set(index, facts);
    // A recipient held unclaimed (messaging-tally-waiting.ts); one with a ledger entry is past waiting.
    for (const [index, code] of waitingCodesOf(item)) if (wanted.has(index) && !claimed.has(index)) waiting.set(index, code);
  }
  const ledger = records.map(({ entry, facts }) => {
    const tally = found.get(entry.index);
    // An UNKNOWN outcome's message id, learned from Meta's events.
    const learned = entry.messageId === undefined && tally?.messageId !== undefined ? { ...entry, messageId: tally.messageId } : entry;
    return { entry: learned, facts: mergeDeliveryFacts(facts, tally?.facts) };
  });
  return { ledger, outcomes, waiting };
}
