/**
 * What the inbox does with Meta's BSUID ↔ phone pairs (docs/ORGANIZATIONS-AND-V1.md "One identity
 * per user"): records the new or changed ones in the contact book and brings the opt-out records
 * of the pair's two keys to one decision, so a STOP under either key excludes the user from a
 * broadcast naming the other. The accept path's suppression lookup stays one read per key: the
 * opt-out is written under both keys, not looked up through the pair.
 */
import { optOutKeyOf } from '../recipients/opt-out-key';
import { samePair, type ContactBook, type IdentityPair } from './contact-book';
import { isOptedOut, withKeywordApplied, withOptOutAdded, type OptOutRecord } from './opt-out-record';
import type { OptOutChange, OptOutPorts } from './opt-outs';

export interface IdentityPairPorts extends Pick<OptOutPorts, 'optOuts' | 'clock'> {
  contactBook: ContactBook;
}

/**
 * The one decision for a pair's two opt-out records, as a change to apply to each key (each decided
 * on its own stored record, so the key already holding the decision is not written): on the list by
 * a business's or Meta's decision (api, operator, webhook-131050) under either key → both on it with
 * that source; otherwise the latest keyword by Meta's time decides both (a STOP puts both on the
 * list, a START takes keyword entries off). Undefined: nothing to align (no entry, no keyword).
 *
 * @example
 * const change = alignedChangeOf({ state: 'opted-out', phoneNumber: 'US.1', source: 'keyword', createdAt: 'T1', keywordAt: 'T0' }, undefined, 'T2');
 * change?.('447700900123')(undefined); // { state: 'opted-out', phoneNumber: '447700900123', source: 'keyword', createdAt: 'T2', keywordAt: 'T0' }
 */
export function alignedChangeOf(a: OptOutRecord | undefined, b: OptOutRecord | undefined, now: string): ((key: string) => OptOutChange) | undefined {
  return carriedChangeOf([a, b], now);
}

/**
 * The one decision of several records of one person (alignedChangeOf's rule over any number of
 * them): what a pair aligns to, and what an identity change carries from the old ids to the new.
 *
 * @example
 * carriedChangeOf([{ state: 'opted-out', phoneNumber: 'US.old', source: 'api', createdAt: 'T1' }, undefined], 'T2')?.('US.new')(undefined);
 * // { state: 'opted-out', phoneNumber: 'US.new', source: 'api', createdAt: 'T2' }
 */
export function carriedChangeOf(records: ReadonlyArray<OptOutRecord | undefined>, now: string): ((key: string) => OptOutChange) | undefined {
  const decided = records.find((record) => isOptedOut(record) && record.source !== 'keyword');
  if (decided && isOptedOut(decided)) {
    return (key) => (current) => withOptOutAdded(current, { phoneNumber: key, source: decided.source, now });
  }
  const latest = records.reduce<OptOutRecord | undefined>(
    (found, record) => (record?.keywordAt !== undefined && (found?.keywordAt === undefined || record.keywordAt > found.keywordAt) ? record : found),
    undefined,
  );
  if (latest?.keywordAt === undefined) return undefined;
  const keyword = { kind: isOptedOut(latest) ? ('stop' as const) : ('start' as const), at: latest.keywordAt, now };
  return (key) => (current) => withKeywordApplied(current, { ...keyword, phoneNumber: key });
}

/**
 * Brings the opt-out records of each pair's keys to one decision (alignedChangeOf). Called after the
 * pairs were written: reads every key's record at once (strongly consistent, batched), then applies
 * each pair's decision to its two keys (a write only where a key does not hold it yet; most pairs
 * have no record and cost no write).
 *
 * @example
 * await alignPairsOptOuts(ports, 'org_1', [{ phoneNumber: '447700900123', userId: 'GB.1', at: '2026-05-04T08:00:00.000Z' }]);
 */
export async function alignPairsOptOuts(ports: Pick<OptOutPorts, 'optOuts' | 'clock'>, organizationId: string, pairs: readonly IdentityPair[]): Promise<void> {
  if (pairs.length === 0) return;
  const records = await ports.optOuts.recordsOf(
    organizationId,
    pairs.flatMap((pair) => [pair.phoneNumber, pair.userId]),
  );
  const now = ports.clock.now().toISOString();
  for (const pair of pairs) {
    const changeFor = alignedChangeOf(records.get(pair.phoneNumber), records.get(pair.userId), now);
    if (!changeFor) continue;
    for (const key of [pair.phoneNumber, pair.userId]) await ports.optOuts.updateOptOut(organizationId, key, changeFor(key));
  }
}

/** New pairs of one change learned at once (each is a few sequential store calls). */
const pairsInFlight = 8;

/** The newest of each pair seen in one batch (a batch may carry the same user many times). */
function newestPairs(pairs: readonly IdentityPair[]): IdentityPair[] {
  const byKeys = new Map<string, IdentityPair>();
  for (const pair of pairs) {
    // A number's two forms (Mexico, Brazil) are one pair.
    const id = `${optOutKeyOf(pair.phoneNumber)}|${pair.userId}`;
    const found = byKeys.get(id);
    if (!found || found.at < pair.at) byKeys.set(id, pair);
  }
  return [...byKeys.values()];
}

/**
 * Records the pairs one webhook batch showed (inbound messages carrying both ids, `sent` statuses
 * carrying both): one batched read of what the contact book holds, then only new or changed pairs
 * are written (a known pair costs no write). Every written pair's two directions first, then the
 * opt-outs of all of them aligned (alignPairsOptOuts: one batched read, a write only where the two
 * keys disagree). Two write units for a new pair, none for a known one.
 *
 * A crash between the directions and the alignment leaves a stored pair whose opt-outs may not be
 * aligned yet. The batch that showed it failed, so the queue delivers it again: `recheck` (a
 * redelivered or replayed batch) aligns the opt-outs of every pair it shows, known or not (reads
 * only, unless a key disagrees). That replaces the per-pair "aligned" marker the first version
 * wrote: one write unit less per new pair (issue 28; docs/PERFORMANCE.md's git history).
 * Returns how many pairs were recorded.
 *
 * @example
 * await learnPairs(ports, 'org_1', [{ phoneNumber: '447700900123', userId: 'GB.1', at: '2026-05-04T08:00:00.000Z' }]); // 1, then 0 again
 */
export async function learnPairs(
  ports: IdentityPairPorts,
  organizationId: string,
  pairs: readonly IdentityPair[],
  options: { recheck?: boolean } = {},
): Promise<number> {
  const candidates = newestPairs(pairs);
  if (candidates.length === 0) return 0;
  const stored = await ports.contactBook.pairsOf(
    organizationId,
    candidates.flatMap((pair) => [pair.phoneNumber, pair.userId]),
  );
  let recorded = 0;
  const toAlign: IdentityPair[] = [];
  const learn = async (pair: IdentityPair): Promise<void> => {
    const underBsuid = stored.get(pair.userId);
    const underPhone = stored.get(pair.phoneNumber);
    // A pair met under an older form of its number (stored before the opt-out key) is written again: that moves it.
    const known = samePair(underPhone, pair) && underPhone?.olderForm !== true && samePair(underBsuid, pair);
    // A newer pair already holds one of the keys (the user changed number since): nothing to write.
    const superseded = [underPhone, underBsuid].some((held) => held !== undefined && !samePair(held, pair) && held.at >= pair.at);
    if (superseded) return;
    if (known) {
      // A batch seen before may have crashed between the pair and its alignment: finish it.
      if (options.recheck) toAlign.push(pair);
      return;
    }
    // Moved with the newest time it was shown at, so the older form's item (no newer) is deleted.
    const moved = samePair(underPhone, pair) && underPhone!.at > pair.at ? { ...pair, at: underPhone!.at } : pair;
    if ((await ports.contactBook.recordPair(organizationId, moved)) === 'stale') return;
    toAlign.push(pair);
    recorded += 1;
  };
  // A change of a large broadcast's `sent` statuses may show many new pairs: a few at a time, each in its order.
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < candidates.length) await learn(candidates[next++]!);
  };
  // Every lane finishes before a failure is thrown: no write still running once the batch is reported.
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(pairsInFlight, candidates.length) }, lane));
  // The pairs written are aligned even when another failed: their records are read only now, after every pair write.
  await alignPairsOptOuts(ports, organizationId, toAlign);
  const failed = lanes.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
  return recorded;
}
