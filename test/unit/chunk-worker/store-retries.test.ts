/**
 * The chunk worker's store calls retried in place (functions/chunk-worker/chunk-store-retries.ts over
 * shared/ports/store-retry.ts): a store timeout in a claim, an outcome flush, the progress or a
 * job-control read no longer fails the chunk's delivery, and nobody is sent twice.
 */
import { isMendableStoreFault, withStoreRetries } from '../../../functions/chunk-worker/chunk-store-retries';
import { processOutboundChunk } from '../../../shared/broadcast/chunk-worker/process-outbound-chunk';
import { InboxStoreUnavailableError } from '../../../shared/inbox/errors';
import { StoreUnavailableError } from '../../../shared/ports/errors';
import { TenancyStoreUnavailableError } from '../../../shared/tenancy/errors';
import { chunkMessage } from '../../support/broadcast-fakes';
import { setup, startMs, statusCounts } from './chunk-worker-kit';

type Kit = ReturnType<typeof setup>;

/** Makes the kit's ledger and stores time out: each named call fails on the calls listed (1-based, counted per method). */
function injectTimeouts(
  kit: Kit,
  plan: Partial<Record<'claimRecipients' | 'recordOutcomes' | 'addChunkProgress' | 'readJobControl' | 'reconcileChunk', number[]>>,
) {
  const injected: string[] = [];
  const target = kit.broadcasts as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const [method, failing] of Object.entries(plan)) {
    const original = target[method]!.bind(kit.broadcasts);
    let calls = 0;
    target[method] = async (...args: unknown[]) => {
      calls += 1;
      if (failing!.includes(calls)) {
        injected.push(`${method}#${calls}`);
        throw new StoreUnavailableError('Store unavailable: TimeoutError');
      }
      return original(...args);
    };
  }
  return injected;
}

const invocationOf = (kit: Kit) => ({ remainingTimeMs: () => startMs + 120_000 - kit.time.nowMs() });

describe('the chunk worker with its store calls retried in place', () => {
  it('rides out timeouts of claims, an outcome flush (with its tally codes), the progress and the job-control read: every recipient sent once, the chunk done in this delivery', async () => {
    const kit = setup({ rate: 50 });
    const message = chunkMessage(60);
    await kit.createJob(message);
    const injected = injectTimeouts(kit, {
      claimRecipients: [2, 3, 5],
      recordOutcomes: [1, 2],
      addChunkProgress: [1],
      readJobControl: [1],
      reconcileChunk: [1],
    });

    const report = await kit.time.run(() => processOutboundChunk(withStoreRetries(kit.dependencies, invocationOf(kit)), message, invocationOf(kit)));

    expect(injected).toHaveLength(8);
    expect(report).toMatchObject({ sent: 60, failed: 0, unknown: 0, skipped: 0, continued: 0, chunkDone: true });
    expect(kit.upstream.sends.map((send) => send.to).sort()).toEqual(message.recipients.map(({ to }) => to).sort());
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: 60 });
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ sent: 60, failed: 0, unknown: 0, doneAt: expect.any(String) });
  });

  it('without the retries the same first timeout fails the whole delivery (what the retries are for)', async () => {
    const kit = setup({ rate: 50 });
    const message = chunkMessage(60);
    await kit.createJob(message);
    injectTimeouts(kit, { claimRecipients: [1] });
    await expect(kit.run(message)).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('when a claim cannot be written within its retries the delivery fails; the next one skips who was done and sends the rest once', async () => {
    const kit = setup({ rate: 50 });
    const message = chunkMessage(40);
    await kit.createJob(message);
    // Every claim of the 10th recipient times out: the first call and its five retries.
    const stuck = message.recipients[9]!.index;
    const claim = kit.broadcasts.claimRecipients.bind(kit.broadcasts);
    const injected: number[] = [];
    // Claims go in groups (claim-groups.ts): the group holding the stuck recipient times out.
    kit.broadcasts.claimRecipients = async (...args: Parameters<typeof claim>) => {
      if (!args[2].some(({ index }) => index === stuck) || injected.length >= 6) return claim(...args);
      injected.push(stuck);
      throw new StoreUnavailableError('Store unavailable: TimeoutError');
    };
    const retried = withStoreRetries(kit.dependencies, invocationOf(kit));
    await expect(kit.time.run(() => processOutboundChunk(retried, message, invocationOf(kit)))).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(injected).toHaveLength(6);
    const sentFirst = kit.upstream.sends.length;
    expect(sentFirst).toBeLessThan(40);

    const again = await kit.time.run(() => processOutboundChunk(withStoreRetries(kit.dependencies, invocationOf(kit)), message, invocationOf(kit)));
    expect(again).toMatchObject({ sent: 40 - sentFirst, unknown: 0, chunkDone: true });
    expect(new Set(kit.upstream.sends.map((send) => send.to)).size).toBe(kit.upstream.sends.length);
    expect(kit.upstream.sends).toHaveLength(40);
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: 40 });
  });

  it('stops retrying near the deadline: with 10 s left (the margin) a timeout fails at once', async () => {
    const kit = setup({ rate: 50 });
    const message = chunkMessage(5);
    await kit.createJob(message);
    const injected = injectTimeouts(kit, { readJobControl: [1, 2] });
    const nearlyOver = { remainingTimeMs: () => 10_000 };
    await expect(kit.time.run(() => processOutboundChunk(withStoreRetries(kit.dependencies, nearlyOver), message, invocationOf(kit)))).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    expect(injected).toEqual(['readJobControl#1']);
  });

  it('retries the unavailable errors of every store module the worker calls, and nothing else', () => {
    expect(isMendableStoreFault(new StoreUnavailableError('x'))).toBe(true);
    expect(isMendableStoreFault(new TenancyStoreUnavailableError('x'))).toBe(true);
    expect(isMendableStoreFault(new InboxStoreUnavailableError('x'))).toBe(true);
    expect(isMendableStoreFault(Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' }))).toBe(false);
    expect(isMendableStoreFault(Object.assign(new Error('timed out'), { name: 'TimeoutError' }))).toBe(false);
  });
});
