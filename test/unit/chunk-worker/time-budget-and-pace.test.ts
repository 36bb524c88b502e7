/** The chunk worker's time budget, the account's pace, its lanes (Little's law) and yielding to a busy account. */
import type { OutboundMessage, TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import { parseCallbackData } from '../../../shared/delivery/callback-data';
import { processOutboundChunk } from '../../../shared/broadcast/chunk-worker/process-outbound-chunk';
import { SendLatencyEstimate } from '../../../shared/sending/in-flight-budget';
import { pacedRate } from '../../../shared/sending/send-policy';
import { chunkMessage, rejected } from '../../support/broadcast-fakes';
import { startMs, baseSettings, setup, statusCounts, maxInWindow, type ChunkWorkerKit } from './chunk-worker-kit';

describe('processOutboundChunk within its time budget', () => {
  it('continues the recipients it has no time for in a new message, and that message finishes the chunk', async () => {
    // 10 sends/s → a slot every 100 ms; the budget ends 1.8 s - 1 s margin = 800 ms from now: slots 0..700.
    const kit = setup({ rate: 10, settings: { maxInFlight: 1 } });
    const message = chunkMessage(20);
    await kit.createJob(message);
    kit.setDeadline(startMs + 1800);
    const report = await kit.run(message);

    expect(report).toEqual({ sent: 8, failed: 0, unknown: 0, skipped: 0, continued: 12, chunkDone: false });
    expect(kit.upstream.sends.map((send) => send.to)).toEqual(message.recipients.slice(0, 8).map(({ to }) => to));
    expect(kit.queue.messages).toEqual([{ ...message, recipients: message.recipients.slice(8) }]);
    expect(kit.broadcasts.callsOf('reconcileChunk')).toBe(0);
    expect(kit.broadcasts.entriesOf(message.jobId, 0)).toHaveLength(8);

    kit.setDeadline(kit.time.nowMs() + 120_000);
    const rest = await kit.run(kit.queue.messages[0] as TemplateChunkMessage);
    expect(rest).toMatchObject({ sent: 12, continued: 0, chunkDone: true });
    expect(kit.upstream.sends).toHaveLength(20);
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ sent: 20, doneAt: expect.any(String) });
  });

  it('starts no send after the time budget, however many sends are in flight', async () => {
    const kit = setup({ rate: 10, settings: { maxInFlight: 4 } });
    const message = chunkMessage(20);
    await kit.createJob(message);
    kit.setDeadline(startMs + 1800);
    const budgetEnd = startMs + 800;
    const report = await kit.run(message);

    expect(kit.upstream.sends.every((send) => send.at < budgetEnd)).toBe(true);
    expect(report.sent).toBe(kit.upstream.sends.length);
    expect(report.sent + report.continued).toBe(20);
    const sentTo = new Set(kit.upstream.sends.map((send) => send.to));
    expect(kit.queue.messages).toHaveLength(1);
    const continued = (kit.queue.messages[0] as TemplateChunkMessage).recipients;
    expect(continued).toEqual(message.recipients.filter(({ to }) => !sentTo.has(to)));
    // Nobody is left claimed but unsent (that would turn into UNKNOWN on the next run).
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: report.sent });
  });

  it('keeps room for one whole upstream timeout (and the final flush) after the last send it starts', async () => {
    // Margin max(1 s, 1 s timeout + 5 s) = 6 s: the budget ends 6.8 s - 6 s = 800 ms from now, slots 0..700.
    const withTimeout = setup({ rate: 10, settings: { maxInFlight: 1, upstreamTimeoutMs: 1000 } });
    const message = chunkMessage(20);
    await withTimeout.createJob(message);
    withTimeout.setDeadline(startMs + 6800);
    expect(await withTimeout.run(message)).toMatchObject({ sent: 8, continued: 12 });

    // Without it only the configured 1 s margin is kept: all 20 slots (0..1,900 ms) fit before 5.8 s.
    const marginOnly = setup({ rate: 10, settings: { maxInFlight: 1 } });
    await marginOnly.createJob(message);
    marginOnly.setDeadline(startMs + 6800);
    expect(await marginOnly.run(message)).toMatchObject({ sent: 20, continued: 0 });
  });

  it('hands a refused recipient whose retry cannot start within the time budget to the continuation, unclaimed, instead of failing it', async () => {
    // Budget ends 800 ms from now; backoff with random 0.5 → 500 ms, then 500 ms again (base 1 s).
    const kit = setup({ rate: 10, settings: { maxInFlight: 1, maxAttempts: 6, backoff: { baseMs: 1000, maxMs: 1000 } } });
    const message = chunkMessage(5);
    await kit.createJob(message);
    kit.setDeadline(startMs + 1800);
    const { to } = message.recipients[0]!;
    kit.upstream.script(to, rejected(131000, 500), rejected(131000, 500));
    const report = await kit.run(message);

    expect(kit.upstream.sendsTo(to).map((send) => send.at - startMs)).toEqual([0, 500]);
    expect(kit.broadcasts.entry(message.jobId, 0, 0)).toBeUndefined();
    expect(report).toMatchObject({ sent: 0, failed: 0, continued: 5, chunkDone: false });
    const continued = (kit.queue.messages[0] as TemplateChunkMessage).recipients;
    expect([...continued].sort((a, b) => a.index - b.index)).toEqual(message.recipients);

    // The next invocation sends it (the upstream answers now) and finishes the chunk.
    kit.setDeadline(kit.time.nowMs() + 120_000);
    expect(await kit.run(kit.queue.messages[0] as TemplateChunkMessage)).toMatchObject({ sent: 5, failed: 0, chunkDone: true });
    expect(kit.broadcasts.entry(message.jobId, 0, 0)).toMatchObject({ status: 'SENT' });
  });
});

describe("processOutboundChunk at the account's pace", () => {
  it('paces sends of two workers of one account at most R per second, 1000/R ms apart', async () => {
    const rate = 20;
    const kit = setup({ rate, settings: { maxInFlight: 8 }, jobChunks: [30, 30] });
    const first = chunkMessage(30);
    const second: TemplateChunkMessage = {
      ...chunkMessage(60),
      chunkIndex: 1,
    };
    second.recipients = second.recipients.slice(30);
    await kit.createJob(first, [30, 30]);

    const [a, b] = await kit.time.run(
      Promise.all([
        processOutboundChunk(kit.dependencies, first, { remainingTimeMs: () => 120_000 }),
        processOutboundChunk(kit.dependencies, second, { remainingTimeMs: () => 120_000 }),
      ]),
    );
    expect(a.sent + b.sent).toBe(60);
    const times = kit.upstream.sends.map((send) => send.at).sort((x, y) => x - y);
    const gaps = times.slice(1).map((time, position) => time - times[position]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000 / rate - 1e-6);
    expect(maxInWindow(times, 1000)).toBeLessThanOrEqual(rate);
    // No idle time either: 60 sends at 20/s, paced 2 % under, take 59 gaps of 51 ms.
    // (the clock reads whole milliseconds).
    expect(times[times.length - 1]! - times[0]!).toBeCloseTo(59 * (1000 / pacedRate(rate)), 0);
  });

  it("books no more of the account's schedule than its recipients use, so the next chunk's first send is not pushed back", async () => {
    // 80/s reserves blocks of 8 slots; a 3-recipient chunk must book 3 of them only.
    const rate = 80;
    const kit = setup({ rate, settings: { maxInFlight: 8 } });
    const message = chunkMessage(3);
    await kit.createJob(message);
    await kit.run(message);
    const spacingMs = 1000 / pacedRate(rate);
    expect(kit.pacer.reservations.map((reservation) => reservation.count)).toEqual([3]);
    expect(await kit.pacer.bookedUntil(message.wabaId)).toBeCloseTo(startMs + 3 * spacingMs, 6);
  });

  it('keeps a rate that does not divide a second (7/s) without bursts', async () => {
    // Clock readings are whole milliseconds and slots accumulate 142.857 ms steps (the 8th lands at
    // 999.99… ms), so gaps and windows are checked to the clock's 1 ms granularity.
    const kit = setup({ rate: 7, settings: { maxInFlight: 5 } });
    const message = chunkMessage(21);
    await kit.createJob(message);
    await kit.run(message);
    const times = kit.upstream.sends.map((send) => send.at).sort((x, y) => x - y);
    const gaps = times.slice(1).map((time, position) => time - times[position]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(Math.floor(1000 / 7));
    expect(maxInWindow(times, 999)).toBeLessThanOrEqual(7);
    expect(maxInWindow(times, 1000 + 142)).toBeLessThanOrEqual(8);
  });
});

describe("in-flight budget (Little's law)", () => {
  /** Every send takes `latencyMs` of virtual time; the most sends out at once is recorded. */
  const slowUpstream = (kit: ChunkWorkerKit, latencyMs: number) => {
    let inFlight = 0;
    const seen = { peak: 0 };
    kit.upstream.onSend = async () => {
      inFlight += 1;
      seen.peak = Math.max(seen.peak, inFlight);
      await kit.time.sleep(latencyMs);
      inFlight -= 1;
    };
    return seen;
  };
  const spanMs = (kit: ChunkWorkerKit) => kit.upstream.sends[kit.upstream.sends.length - 1]!.at - kit.upstream.sends[0]!.at;

  it("keeps rate x latency sends in flight, so a 300 ms upstream still gets the account's 100/s (a fixed 16 lanes would get 53/s)", async () => {
    const kit = setup({ rate: 100, settings: { maxInFlight: 512, minInFlight: 16, latencyPriorMs: 300 } });
    const seen = slowUpstream(kit, 300);
    const message = chunkMessage(600);
    await kit.createJob(message);
    const report = await kit.run(message);

    expect(report).toMatchObject({ sent: 600, failed: 0, unknown: 0, chunkDone: true });
    expect(new Set(kit.upstream.sends.map((send) => send.to)).size).toBe(600);
    // 600 sends 10 ms apart: 5.99 s at the full rate (plus the slow start's first round trip).
    expect(spanMs(kit)).toBeLessThanOrEqual(6_500);
    expect(seen.peak).toBeGreaterThanOrEqual(30);
  });

  it('grows its lanes from a prior that was too low, once sends report their latency', async () => {
    const kit = setup({ rate: 100, settings: { maxInFlight: 512, minInFlight: 2, latencyPriorMs: 1 } });
    const seen = slowUpstream(kit, 300);
    const message = chunkMessage(1000);
    await kit.createJob(message);
    const report = await kit.run(message);

    expect(report).toMatchObject({ sent: 1000, chunkDone: true });
    expect(seen.peak).toBeGreaterThanOrEqual(30);
    // The first sends ran on 2 lanes (6.7/s); the rest at the rate.
    expect(spanMs(kit)).toBeLessThan(15_000);
  });

  it('sheds lanes when the latency falls, and never runs more than the cap', async () => {
    const fast = setup({ rate: 100, settings: { maxInFlight: 512, minInFlight: 2, latencyPriorMs: 2_000 } });
    const fastSeen = slowUpstream(fast, 1);
    const message = chunkMessage(400);
    await fast.createJob(message);
    expect(await fast.run(message)).toMatchObject({ sent: 400, chunkDone: true });
    // The prior asks for 260 lanes; sends report 1 ms each, so at most the first lanes' worth go out at once.
    expect(fastSeen.peak).toBeLessThanOrEqual(260);

    const capped = setup({ rate: 100, settings: { maxInFlight: 8, minInFlight: 2, latencyPriorMs: 300 } });
    const cappedSeen = slowUpstream(capped, 300);
    await capped.createJob(message);
    expect(await capped.run(message)).toMatchObject({ sent: 400, chunkDone: true });
    expect(cappedSeen.peak).toBe(8);
  });

  it('shares one process-wide estimate: a warm worker starts its next chunk from the latency the last one saw', async () => {
    const latency = new SendLatencyEstimate(1);
    const kit = setup({ rate: 100, settings: { maxInFlight: 512, minInFlight: 2, latencyPriorMs: 1 } });
    kit.dependencies.latency = latency;
    slowUpstream(kit, 300);
    const message = chunkMessage(300);
    await kit.createJob(message);
    await kit.run(message);
    expect(latency.observed).toBe(300);
    expect(latency.meanMs).toBeGreaterThan(250);
  });
});

describe('a business account other workers already keep busy', () => {
  // Lane time with the default prior: 500 ms of latency + the 1,000 ms rate-limit hold.
  const laneTimeMs = 500 + baseSettings.rateLimitHoldMs;

  it("yields its concurrency slot: nothing claimed or sent, the same message re-queued, delayed by one chunk's time at the account's rate", async () => {
    const kit = setup({ rate: 20 });
    const message = chunkMessage(30);
    await kit.createJob(message);
    // Other workers' lanes hold 2 s of the account's slots: more than a lane's time.
    await kit.pacer.reserve(message.wabaId, 40, 20, startMs);

    const report = await kit.run(message);

    expect(report).toEqual({ sent: 0, failed: 0, unknown: 0, skipped: 0, continued: 0, deferred: 30, chunkDone: false });
    expect(kit.upstream.sends).toHaveLength(0);
    expect(kit.broadcasts.entriesOf(message.jobId, 0)).toHaveLength(0);
    // 30 recipients at 20/s: 1.5 s, in whole seconds.
    expect(kit.queue.batches).toEqual([{ messages: [message], delaySeconds: 2 }]);
    // No slot was taken: the schedule stands where the others left it.
    expect(await kit.pacer.bookedUntil(message.wabaId)).toBe(startMs + 2_000);
  });

  it('waits at most a minute however slow the account', async () => {
    const kit = setup({ rate: 1 });
    const message = chunkMessage(1000);
    await kit.createJob(message);
    await kit.pacer.reserve(message.wabaId, 10, 1, startMs);
    expect(await kit.run(message)).toMatchObject({ deferred: 1000, sent: 0 });
    expect(kit.queue.batches[0]!.delaySeconds).toBe(60);
  });

  it("sends when the schedule is booked less than a lane's time ahead, or only held after a rate-limit answer", async () => {
    const booked = setup({ rate: 20 });
    const message = chunkMessage(10);
    await booked.createJob(message);
    await booked.pacer.reserve(message.wabaId, Math.floor((laneTimeMs * 20) / 1000) - 1, 20, startMs);
    expect(await booked.run(message)).toMatchObject({ sent: 10, chunkDone: true });

    const held = setup({ rate: 20 });
    await held.createJob(message);
    await held.pacer.holdUntil(message.wabaId, startMs + baseSettings.rateLimitHoldMs);
    expect(await held.run(message)).toMatchObject({ sent: 10, chunkDone: true });
    expect(held.queue.batches).toHaveLength(0);
  });

  it('runs the deferred message like any other once the account is free again, each recipient once', async () => {
    const kit = setup({ rate: 20 });
    const message = chunkMessage(30);
    await kit.createJob(message);
    await kit.pacer.reserve(message.wabaId, 40, 20, startMs);
    await kit.run(message);
    const [again] = kit.queue.messages;
    await kit.time.run(kit.time.sleep(2_000));

    expect(await kit.run(again as TemplateChunkMessage)).toMatchObject({ sent: 30, chunkDone: true });
    expect(new Set(kit.upstream.sends.map((send) => send.to)).size).toBe(30);
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: 30 });
  });
});

describe("chunks of one account that reach workers together (the account's turn)", () => {
  const chunkOf = (body: Record<string, unknown>) => {
    const reference = parseCallbackData(body.biz_opaque_callback_data);
    return reference?.kind === 'ledger' ? reference.chunkIndex : undefined;
  };

  /** Runs the chunks at once, and every message re-queued after its delay, until none is left; the sends' times. */
  async function drainTogether(kit: ChunkWorkerKit, messages: TemplateChunkMessage[]) {
    const invocation = { remainingTimeMs: () => startMs + 120_000 - kit.time.nowMs() };
    const running: Array<Promise<unknown>> = [];
    const reports: Array<{ chunkIndex: number; report: Awaited<ReturnType<typeof processOutboundChunk>> }> = [];
    const queue = {
      deferRedelivery: kit.queue.deferRedelivery.bind(kit.queue),
      enqueue: async (queued: readonly OutboundMessage[], options?: { delaySeconds?: number }) => {
        await kit.queue.enqueue(queued, options);
        for (const message of queued) running.push(kit.time.sleep((options?.delaySeconds ?? 0) * 1000).then(() => start(message as TemplateChunkMessage)));
      },
    };
    const start = async (message: TemplateChunkMessage) => {
      const report = await processOutboundChunk({ ...kit.dependencies, queue }, message, invocation);
      reports.push({ chunkIndex: message.chunkIndex, report });
    };
    await kit.time.run(async () => {
      running.push(...messages.map(start));
      while (running.length > 0) await Promise.all(running.splice(0));
    });
    return reports;
  }

  it('send one after another at the account’s rate: one chunk at a time holds a worker, the others wait in the queue, nobody twice', async () => {
    const kit = setup({ rate: 20, jobChunks: [100, 100, 100, 100] });
    const messages = [0, 1, 2, 3].map((chunkIndex) => chunkMessage(100, { chunkIndex }));
    await kit.createJob(messages[0]!);

    const reports = await drainTogether(kit, messages);

    // The first round: one chunk sends, three are re-queued without claiming anything.
    expect(reports.slice(0, 3).map(({ report }) => report.deferred)).toEqual([100, 100, 100]);
    const sent = reports.filter(({ report }) => report.sent > 0);
    expect(sent.map(({ chunkIndex }) => chunkIndex).sort()).toEqual([0, 1, 2, 3]);
    for (const chunkIndex of [0, 1, 2, 3]) expect(statusCounts(kit.broadcasts.entriesOf(messages[0]!.jobId, chunkIndex))).toEqual({ SENT: 100 });
    // The account kept its rate throughout: 400 sends at 20/s take 20 s, with no gap between chunks.
    const times = kit.upstream.sends.map((send) => send.at);
    expect(Math.max(...times) - Math.min(...times)).toBeLessThan(20_000 * 1.1);
    expect(maxInWindow(times, 1_000)).toBeLessThanOrEqual(20);
    // At most two chunks send at once (one handing over to the next), never all four.
    const spans = [0, 1, 2, 3].map((chunkIndex) => {
      const own = kit.upstream.sends.filter((send) => chunkOf(send.body) === chunkIndex).map((send) => send.at);
      return { first: Math.min(...own), last: Math.max(...own) };
    });
    for (const at of times) expect(spans.filter(({ first, last }) => first <= at && at <= last).length).toBeLessThanOrEqual(2);
  });
  it('a chunk whose sends fit in a lane’s time (a single message) does not wait for a running chunk’s turn', async () => {
    const kit = setup({ rate: 20, jobChunks: [100, 1] });
    const campaign = chunkMessage(100, { chunkIndex: 0 });
    const single = chunkMessage(1, { chunkIndex: 1, recipients: [{ index: 100, to: '919900000001', parameters: ['Ann'] }] });
    await kit.createJob(campaign);
    const reports = await drainTogether(kit, [campaign, single]);
    expect(reports.map(({ chunkIndex, report }) => [chunkIndex, report.sent, report.deferred ?? 0])).toEqual([
      [1, 1, 0],
      [0, 100, 0],
    ]);
    expect(kit.upstream.sends.find((send) => send.to === '919900000001')!.at - startMs).toBeLessThan(1_000);
  });
});
