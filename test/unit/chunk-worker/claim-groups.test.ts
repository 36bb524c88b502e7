/** Claims in groups (claim-groups.ts) and the ledger page's encoding (ledger-page-items.ts): what decides the write units of a claim. */
import { decodeLedgerPage, decodePageEntry, encodePageEntry, LEDGER_PAGE_SIZE } from '../../../shared/adapters/dynamodb/ledger-page-items';
import { CLAIM_LEAD_MS, ClaimGroups, claimGroupSize } from '../../../shared/broadcast/chunk-worker/claim-groups';
import type { ClaimResult, LedgerEntry, RecipientClaim } from '../../../shared/broadcast/ports';
import { fixedClock } from '../../../shared/ports/clock';

const start = new Date('2026-11-27T08:00:00.000Z');

function harness(groupSize: number, pageSize?: number) {
  const clock = fixedClock(start);
  const written: RecipientClaim[][] = [];
  const sleeps: Array<{ ms: number; wake: () => void }> = [];
  const ledger = {
    claimRecipients: async (_jobId: string, _chunk: number, claims: readonly RecipientClaim[]): Promise<ClaimResult[]> => {
      written.push([...claims]);
      return claims.map((claim) =>
        claim.index === 13
          ? { claimed: false, existing: { index: 13, to: claim.to, status: 'SENT', attempts: 1, updatedAt: start.toISOString() } }
          : { claimed: true },
      );
    },
  };
  const sleep = (ms: number) => new Promise<void>((wake) => sleeps.push({ ms, wake }));
  const groups = new ClaimGroups(ledger, { jobId: 'pub_1', chunkIndex: 0 }, { clock, sleep }, groupSize, pageSize);
  return { groups, written, sleeps, clock };
}
const claim = (index: number): RecipientClaim => ({ index, to: `91980000${index}` });
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('claims in groups', () => {
  it('sizes a group by what the rate sends in 75 ms, capped', () => {
    expect([claimGroupSize(10), claimGroupSize(80), claimGroupSize(1000)]).toEqual([1, 6, 24]);
  });

  it('writes a full group at once, each claim getting its own result', async () => {
    const { groups, written } = harness(3);
    const now = start.getTime();
    const results = await Promise.all([groups.claim(claim(11), now + 500), groups.claim(claim(12), now + 512), groups.claim(claim(13), now + 525)]);
    expect(written).toEqual([[claim(11), claim(12), claim(13)]]);
    expect(results.map((result) => result.claimed)).toEqual([true, true, false]);
  });

  it('writes a group that is not full right before its earliest slot, never earlier', async () => {
    const { groups, written, sleeps, clock } = harness(6);
    const now = start.getTime();
    const first = groups.claim(claim(1), now + 200);
    const second = groups.claim(claim(2), now + 212);
    await settle();
    expect(written).toEqual([]);
    expect(sleeps.map(({ ms }) => ms)).toEqual([200 - CLAIM_LEAD_MS]);
    clock.advanceBy(200 - CLAIM_LEAD_MS);
    sleeps[0]!.wake();
    await expect(Promise.all([first, second])).resolves.toEqual([{ claimed: true }, { claimed: true }]);
    expect(written).toEqual([[claim(1), claim(2)]]);
  });

  it("with the ledger's page size, a full group keeps back its last page held in part for the next group, still written before its slot", async () => {
    const { groups, written, sleeps, clock } = harness(24, LEDGER_PAGE_SIZE);
    const now = start.getTime();
    const pagesOf = (claims: RecipientClaim[]) => [...new Set(claims.map(({ index }) => Math.floor(index / LEDGER_PAGE_SIZE)))];
    // 4–27: page 0 from its middle (the chunk's earlier recipients were someone else's), pages 1 and 2 whole, page 3 begun.
    const claims = Array.from({ length: 45 }, (_, offset) => groups.claim(claim(4 + offset), now + 100 + offset));
    await settle();
    expect(written.map(pagesOf)).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    expect(written.map((group) => group.length)).toEqual([20, 24]);
    // 48 still waits (the next group's first): the one wake-up, set before the first claim's slot, writes it.
    expect(sleeps.map(({ ms }) => ms)).toEqual([100 - CLAIM_LEAD_MS]);
    clock.advanceBy(100 - CLAIM_LEAD_MS);
    sleeps[0]!.wake();
    await Promise.all(claims);
    expect(written.map(pagesOf)).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    expect(written.flat().map(({ index }) => index)).toEqual(Array.from({ length: 45 }, (_, offset) => 4 + offset));
  });

  it('a claim whose slot comes before the pending wake-up gets an earlier one', async () => {
    const { groups, written, sleeps } = harness(6);
    const now = start.getTime();
    void groups.claim(claim(1), now + 400);
    const early = groups.claim(claim(0), now + 40);
    await settle();
    expect(sleeps.map(({ ms }) => ms)).toEqual([400 - CLAIM_LEAD_MS, 40 - CLAIM_LEAD_MS]);
    sleeps[1]!.wake();
    await expect(early).resolves.toEqual({ claimed: true });
    expect(written).toEqual([[claim(1), claim(0)]]);
  });

  it('a failed group write fails every claim of the group', async () => {
    const groups = new ClaimGroups(
      { claimRecipients: () => Promise.reject(new Error('store down')) },
      { jobId: 'pub_1', chunkIndex: 0 },
      { clock: fixedClock(start), sleep: async () => undefined },
      2,
    );
    const claims = [groups.claim(claim(1), start.getTime()), groups.claim(claim(2), start.getTime())];
    await expect(Promise.allSettled(claims)).resolves.toEqual([
      expect.objectContaining({ status: 'rejected' }),
      expect.objectContaining({ status: 'rejected' }),
    ]);
  });
});

describe('ledger page encoding', () => {
  const sent = (index: number): LedgerEntry => ({
    index,
    to: `US.${'1'.repeat(20)}`,
    status: 'SENT',
    messageId: `wamid.${'H'.repeat(54)}`,
    attempts: 2,
    updatedAt: '2026-11-27T08:00:00.123Z',
    sentVia: 'marketing_messages',
    held: true,
  });

  it('round-trips every field, the claim token and a reason holding the separator', () => {
    const failed: LedgerEntry = {
      index: 9,
      to: '919800000009',
      status: 'FAILED',
      failureReasonCode: 'UNKNOWN_OUTCOME: a | b',
      attempts: 3,
      updatedAt: start.toISOString(),
    };
    expect(decodePageEntry(9, encodePageEntry(failed))).toEqual({ entry: failed });
    expect(decodePageEntry(3, encodePageEntry(sent(3), 'k3Jd9a0Q'))).toEqual({ entry: sent(3), token: 'k3Jd9a0Q' });
  });

  it('keeps a full page of sent entries (60-character message ids, long user ids) under 1 KB: one write unit per write', () => {
    const item: Record<string, unknown> = { pk: `LEDGER#pub_${'x'.repeat(32)}#12`, sk: 'P#00125', expiresAt: 1_800_000_000 };
    for (let offset = 0; offset < LEDGER_PAGE_SIZE; offset += 1) item[`e${offset}`] = encodePageEntry(sent(1000 + offset));
    // DynamoDB's item size: attribute names plus values (strings in UTF-8 bytes, numbers ~ their digits).
    const size = Object.entries(item).reduce((sum, [name, value]) => sum + name.length + (typeof value === 'string' ? Buffer.byteLength(value) : 21), 0);
    expect(size).toBeLessThan(1024);
    expect(decodeLedgerPage(item)).toHaveLength(LEDGER_PAGE_SIZE);
  });
});
