/**
 * Meta's facts of a chunk's recipients for the readers (the recipients list and CSV, the follow-up
 * audience): the facts in the job's tally items (messaging-tally-facts.ts), merged with the facts
 * earlier versions stored on the ledger entries themselves (the earliest time of each stage wins),
 * and the message id an event taught an entry whose outcome had none (UNKNOWN).
 */
import type { LedgerEntry } from '../../broadcast/broadcast-stores';
import { mergeDeliveryFacts, type DeliveryFacts } from '../../delivery/recipient-status';
import { messagingKeys, tallySlotOf } from './messaging-table';
import { queryAll, type MessagingTable } from './messaging-table-requests';
import { tallyFactsOf } from './messaging-tally-items';

type ChunkRecord = { entry: LedgerEntry; facts: DeliveryFacts };

/**
 * The records with the tally items' facts merged in: one consistent Query over the tally items
 * their indexes fall in (a chunk's 1,000 recipients: 20 items).
 *
 * @example ledger: await withTallyFacts(table, jobId, entries.map((entry) => ({ entry, facts: {} })))
 */
export async function withTallyFacts(table: MessagingTable, jobId: string, records: readonly ChunkRecord[]): Promise<ChunkRecord[]> {
  if (records.length === 0) return [];
  const indexes = records.map(({ entry }) => entry.index);
  const first = tallySlotOf(jobId, Math.min(...indexes)).key.sk;
  const last = tallySlotOf(jobId, Math.max(...indexes)).key.sk;
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
    ExpressionAttributeValues: { ':pk': messagingKeys.jobPartition(jobId), ':first': first, ':last': last },
    ConsistentRead: true,
  });
  const found = new Map<number, { facts: DeliveryFacts; messageId?: string }>();
  for (const item of items) for (const [index, slot] of tallyFactsOf(item)) found.set(index, slot);
  return records.map(({ entry, facts }) => {
    const tally = found.get(entry.index);
    // An UNKNOWN outcome's message id, learned from Meta's events.
    const learned = entry.messageId === undefined && tally?.messageId !== undefined ? { ...entry, messageId: tally.messageId } : entry;
    return { entry: learned, facts: mergeDeliveryFacts(facts, tally?.facts) };
  });
}
