import { summarizeJob } from '../../../shared/broadcast/broadcast-job';
import type { TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import type { LedgerEntry } from '../../../shared/broadcast/ports';
import {
  CANCELLATION_REFRESH_MS,
  TEMPLATE_STATE_REFRESH_MS,
  cancellationRefreshMs,
  abandonOutboundChunk,
  failureReasonOf,
  processOutboundChunk,
  type ChunkWorkerSettings,
  type ProcessChunkDependencies,
} from '../../../shared/broadcast/process-outbound-chunk';
import {
  InMemoryBroadcastRepository,
  InMemorySendPacer,
  InMemorySenderDirectory,
  RecordingOutboundQueue,
  SENDER,
  ScriptedCloudApi,
  VirtualTime,
  chunkMessage,
  rejected,
  unknownOutcome,
  jobOf,
  InMemoryTemplateStates,
} from '../../support/broadcast-fakes';
import { SendLatencyEstimate } from '../../../shared/sending/in-flight-budget';
import { pacedRate } from '../../../shared/sending/send-policy';

const START = '2026-03-01T09:00:00.000Z';
const startMs = new Date(START).getTime();

const baseSettings: ChunkWorkerSettings = {
  maxInFlight: 4,
  maxAttempts: 3,
  backoff: { baseMs: 100, maxMs: 1000 },
  rateLimitHoldMs: 1000,
  safetyMarginMs: 1000,
  outcomeBatchSize: 25,
  flushIntervalMs: 250,
  pauseRecheckSeconds: 60,
  templatePauseTimeoutMs: 3 * 3_600_000,
};

function setup(options: { rate?: number; settings?: Partial<ChunkWorkerSettings>; jobChunks?: number[] } = {}) {
  const time = new VirtualTime(START);
  const upstream = new ScriptedCloudApi(time);
  const broadcasts = new InMemoryBroadcastRepository();
  const pacer = new InMemorySendPacer();
  const queue = new RecordingOutboundQueue();
  const senders = new InMemorySenderDirectory([{ ...SENDER, messagesPerSecond: options.rate ?? 20 }]);
  const random = jest.fn(() => 0.5);
  const templateStates = new InMemoryTemplateStates();
  const dependencies: ProcessChunkDependencies = {
    senders,
    broadcasts,
    upstream,
    pacer,
    queue,
    clock: time,
    sleep: time.sleep,
    random,
    templateStates,
    settings: { ...baseSettings, ...options.settings },
  };
  let deadline = startMs + 120_000;
  const invocation = { remainingTimeMs: () => deadline - time.nowMs() };
  const createJob = async (message: TemplateChunkMessage, chunkSizes = options.jobChunks ?? [message.recipients.length]) => {
    await broadcasts.createJob(jobOf(message, chunkSizes, START), chunkSizes);
  };
  const run = (message: TemplateChunkMessage) => time.run(() => processOutboundChunk(dependencies, message, invocation));
  return {
    time,
    upstream,
    broadcasts,
    pacer,
    queue,
    random,
    templateStates,
    dependencies,
    createJob,
    run,
    setDeadline: (ms: number) => (deadline = ms),
  };
}

const statusCounts = (entries: LedgerEntry[]) =>
  entries.reduce<Record<string, number>>((counts, entry) => ({ ...counts, [entry.status]: (counts[entry.status] ?? 0) + 1 }), {});

/** Largest number of sends in any window of `windowMs` starting at a send. */
const maxInWindow = (times: number[], windowMs: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let start = 0, end = 0; start < sorted.length; start += 1) {
    while (end < sorted.length && sorted[end]! < sorted[start]! + windowMs) end += 1;
    best = Math.max(best, end - start);
  }
  return best;
};

describe('processOutboundChunk', () => {
  it('sends each recipient once with its template body and records SENT with the message id', async () => {
    const kit = setup();
    const message = chunkMessage(10);
    await kit.createJob(message);
    const report = await kit.run(message);

    expect(report).toEqual({ sent: 10, failed: 0, unknown: 0, skipped: 0, continued: 0, chunkDone: true });
    // Four lanes interleave, so sends are not in request order; each recipient gets exactly one.
    expect(kit.upstream.sends.map((send) => send.to).sort()).toEqual(message.recipients.map(([, to]) => to).sort());
    expect(kit.upstream.sendsTo(message.recipients[3]![1])[0]).toMatchObject({
      phoneNumberId: SENDER.phoneNumberId,
      accessToken: SENDER.accessToken,
      body: {
        messaging_product: 'whatsapp',
        to: message.recipients[3]![1],
        type: 'template',
        template: { name: 'order_update', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Name3' }] }] },
        // Its ledger entry, so Meta's events find the recipient even if this send's outcome is unknown.
        biz_opaque_callback_data: `b1:${message.jobId}:0:${message.recipients[3]![0]}`,
      },
    });
    const entries = kit.broadcasts.entriesOf(message.jobId, 0);
    expect(statusCounts(entries)).toEqual({ SENT: 10 });
    expect(new Set(entries.map((entry) => entry.messageId)).size).toBe(10);
    expect(entries.every((entry) => entry.attempts === 1)).toBe(true);
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ sent: 10, failed: 0, unknown: 0, startedAt: START, doneAt: expect.any(String) });
    expect(kit.queue.batches).toHaveLength(0);
  });

  it('sends nothing when the same message is delivered again', async () => {
    const kit = setup();
    const message = chunkMessage(12);
    await kit.createJob(message);
    await kit.run(message);
    expect(kit.upstream.sends).toHaveLength(12);

    const before = kit.time.nowMs();
    const again = await kit.run(message);
    expect(kit.upstream.sends).toHaveLength(12);
    // Skipped recipients do not wait for send slots.
    expect(kit.time.nowMs()).toBe(before);
    expect(again).toEqual({ sent: 0, failed: 0, unknown: 0, skipped: 12, continued: 0, chunkDone: true });
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: 12 });
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ sent: 12, unknown: 0 });
  });

  it('marks a claim left in SENDING by a crashed attempt as UNKNOWN and never sends it', async () => {
    const kit = setup();
    const message = chunkMessage(5);
    await kit.createJob(message);
    const [index, to] = message.recipients[2]!;
    await kit.broadcasts.claimRecipient(message.jobId, 0, index, to, new Date(START));

    const report = await kit.run(message);
    expect(report).toMatchObject({ sent: 4, unknown: 1, skipped: 1, chunkDone: true });
    expect(kit.upstream.sendsTo(to)).toHaveLength(0);
    expect(kit.broadcasts.entry(message.jobId, 0, index)).toMatchObject({ status: 'UNKNOWN', failureReasonCode: 'UNKNOWN_OUTCOME: interrupted attempt' });
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ sent: 4, unknown: 1 });

    // Once UNKNOWN it stays so: a further delivery neither sends nor counts it again.
    const again = await kit.run(message);
    expect(again).toMatchObject({ sent: 0, unknown: 0, skipped: 5 });
    expect(kit.upstream.sendsTo(to)).toHaveLength(0);
  });

  it('gives rate-limit answers three times the attempts of other errors, since they were not sent', async () => {
    const kit = setup({ settings: { maxInFlight: 1 } });
    const message = chunkMessage(2);
    await kit.createJob(message);
    const [, stormy] = message.recipients[0]!;
    const [, hopeless] = message.recipients[1]!;
    kit.upstream.script(stormy, ...Array.from({ length: 8 }, () => rejected(130429, 400)));
    kit.upstream.script(hopeless, ...Array.from({ length: 12 }, () => rejected(130429, 400)));
    const report = await kit.run(message);
    // maxAttempts 3: a rate-limited recipient may try 9 times; the 9th send of `stormy` is accepted.
    expect(kit.upstream.sendsTo(stormy)).toHaveLength(9);
    expect(kit.upstream.sendsTo(hopeless)).toHaveLength(9);
    expect(report).toMatchObject({ sent: 1, failed: 1 });
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ failuresByReason: { '130429': 1 } });
  });

  it('retries retryable rejections up to maxAttempts, then records FAILED with the code', async () => {
    const kit = setup({ settings: { maxInFlight: 1 } });
    const message = chunkMessage(3);
    await kit.createJob(message);
    const [, always] = message.recipients[0]!;
    const [, twice] = message.recipients[1]!;
    kit.upstream.script(always, rejected(131000, 500), rejected(131000, 500), rejected(131000, 500), rejected(131000, 500));
    kit.upstream.script(twice, rejected(2, 503), rejected(131016, 400));

    const report = await kit.run(message);
    expect(report).toMatchObject({ sent: 2, failed: 1, chunkDone: true });
    expect(kit.upstream.sendsTo(always)).toHaveLength(3);
    expect(kit.upstream.sendsTo(twice)).toHaveLength(3);
    expect(kit.broadcasts.entry(message.jobId, 0, 0)).toMatchObject({ status: 'FAILED', failureReasonCode: '131000', attempts: 3 });
    expect(kit.broadcasts.entry(message.jobId, 0, 1)).toMatchObject({ status: 'SENT', attempts: 3 });
    // Four retries, each after a full-jitter backoff (random 0.5 → 50, 100 ms), no account-wide hold.
    expect(kit.random).toHaveBeenCalledTimes(4);
    const [first, second, third] = kit.upstream.sendsTo(always).map((send) => send.at);
    expect(second! - first!).toBeGreaterThanOrEqual(50);
    expect(third! - second!).toBeGreaterThanOrEqual(100);
    expect(kit.pacer.holds).toHaveLength(0);
    expect(report.rateLimitHolds).toBeUndefined();
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ failed: 1, failuresByReason: { '131000': 1 } });
  });

  it('holds the whole account for ten send intervals on a rate-limit rejection before retrying', async () => {
    const kit = setup({ settings: { maxInFlight: 1 } });
    const message = chunkMessage(2);
    await kit.createJob(message);
    const [, to] = message.recipients[0]!;
    kit.upstream.script(to, rejected(130429, 400));
    const report = await kit.run(message);
    expect(report).toMatchObject({ sent: 2, failed: 0 });
    expect(kit.upstream.sendsTo(to)).toHaveLength(2);
    const firstAt = kit.upstream.sendsTo(to)[0]!.at;
    // 20 messages/s: ten intervals are 500 ms, under the configured cap of 1,000 ms.
    expect(kit.pacer.holds).toEqual([{ accountKey: SENDER.wabaId, untilMs: firstAt + 500 }]);
    expect(kit.pacer.nextFreeAt.get(SENDER.wabaId)).toBeGreaterThanOrEqual(firstAt + 500);
  });

  it('doubles the hold while rate-limit answers keep coming, and starts over after an accepted send', async () => {
    const kit = setup({ settings: { maxInFlight: 1 } });
    const message = chunkMessage(2);
    await kit.createJob(message);
    const [, first] = message.recipients[0]!;
    const [, second] = message.recipients[1]!;
    kit.upstream.script(first, rejected(130429, 400), rejected(130429, 400));
    kit.upstream.script(second, rejected(130429, 400));
    const report = await kit.run(message);
    const holds = kit.pacer.holds.map((hold) => hold.untilMs);
    // Each hold is reported (the chunk worker publishes them as the RateLimitHolds metric).
    expect(report.rateLimitHolds).toBe(3);
    const sends = [...kit.upstream.sendsTo(first), ...kit.upstream.sendsTo(second)].map((send) => send.at);
    // 20 messages/s: 500 ms, then 1,000 ms (the cap); after the first recipient is accepted, 500 ms again.
    expect(holds.map((until, position) => until - sends[[0, 1, 3][position]!]!)).toEqual([500, 1000, 500]);
  });

  it('caps the rate-limit hold at the configured maximum for slow accounts', async () => {
    const kit = setup({ rate: 5, settings: { maxInFlight: 1 } });
    const message = chunkMessage(1);
    await kit.createJob(message);
    const [, to] = message.recipients[0]!;
    kit.upstream.script(to, rejected(130429, 400));
    await kit.run(message);
    const firstAt = kit.upstream.sendsTo(to)[0]!.at;
    expect(kit.pacer.holds).toEqual([{ accountKey: SENDER.wabaId, untilMs: firstAt + 1000 }]);
  });

  it('does not retry a send of unknown outcome', async () => {
    const kit = setup();
    const message = chunkMessage(3);
    await kit.createJob(message);
    const [, to] = message.recipients[1]!;
    kit.upstream.script(to, unknownOutcome('timeout'));
    const report = await kit.run(message);
    expect(report).toMatchObject({ sent: 2, unknown: 1, failed: 0, chunkDone: true });
    expect(kit.upstream.sendsTo(to)).toHaveLength(1);
    expect(kit.broadcasts.entry(message.jobId, 0, 1)).toMatchObject({ status: 'UNKNOWN', failureReasonCode: 'UNKNOWN_OUTCOME: timeout', attempts: 1 });
    expect(kit.random).not.toHaveBeenCalled();
  });

  it('records INVALID_PHONE_NUMBER for 131026 (and for 100 about the number) without retrying', async () => {
    const kit = setup();
    const message = chunkMessage(4);
    await kit.createJob(message);
    kit.upstream.script(message.recipients[0]![1], rejected(131026, 400, 'Message undeliverable'));
    kit.upstream.script(message.recipients[1]![1], rejected(100, 400, "Invalid parameter 'to'"));
    kit.upstream.script(message.recipients[2]![1], rejected(132001, 404, 'Template name does not exist in the translation'));

    const report = await kit.run(message);
    expect(report).toMatchObject({ sent: 1, failed: 3 });
    expect(kit.upstream.sends).toHaveLength(4);
    expect(kit.broadcasts.entry(message.jobId, 0, 0)).toMatchObject({ status: 'FAILED', failureReasonCode: 'INVALID_PHONE_NUMBER' });
    expect(kit.broadcasts.entry(message.jobId, 0, 1)).toMatchObject({ status: 'FAILED', failureReasonCode: 'INVALID_PHONE_NUMBER' });
    expect(kit.broadcasts.entry(message.jobId, 0, 2)).toMatchObject({ status: 'FAILED', failureReasonCode: '132001' });
    expect(kit.broadcasts.chunk(message.jobId, 0)!.failuresByReason).toEqual({ INVALID_PHONE_NUMBER: 2, '132001': 1 });
  });

  it('continues the recipients it has no time for in a new message, and that message finishes the chunk', async () => {
    // 10 sends/s → a slot every 100 ms; the budget ends 1.8 s - 1 s margin = 800 ms from now: slots 0..700.
    const kit = setup({ rate: 10, settings: { maxInFlight: 1 } });
    const message = chunkMessage(20);
    await kit.createJob(message);
    kit.setDeadline(startMs + 1800);
    const report = await kit.run(message);

    expect(report).toEqual({ sent: 8, failed: 0, unknown: 0, skipped: 0, continued: 12, chunkDone: false });
    expect(kit.upstream.sends.map((send) => send.to)).toEqual(message.recipients.slice(0, 8).map(([, to]) => to));
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
    expect(continued).toEqual(message.recipients.filter(([, to]) => !sentTo.has(to)));
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
    const [, to] = message.recipients[0]!;
    kit.upstream.script(to, rejected(131000, 500), rejected(131000, 500));
    const report = await kit.run(message);

    expect(kit.upstream.sendsTo(to).map((send) => send.at - startMs)).toEqual([0, 500]);
    expect(kit.broadcasts.entry(message.jobId, 0, 0)).toBeUndefined();
    expect(report).toMatchObject({ sent: 0, failed: 0, continued: 5, chunkDone: false });
    const continued = (kit.queue.messages[0] as TemplateChunkMessage).recipients;
    expect([...continued].sort(([a], [b]) => a - b)).toEqual(message.recipients);

    // The next invocation sends it (the upstream answers now) and finishes the chunk.
    kit.setDeadline(kit.time.nowMs() + 120_000);
    expect(await kit.run(kit.queue.messages[0] as TemplateChunkMessage)).toMatchObject({ sent: 5, failed: 0, chunkDone: true });
    expect(kit.broadcasts.entry(message.jobId, 0, 0)).toMatchObject({ status: 'SENT' });
  });

  it('stops every lane when the repository fails, writes what was sent, then throws', async () => {
    const kit = setup({ settings: { maxInFlight: 4 } });
    const message = chunkMessage(30);
    await kit.createJob(message);
    const storeDown = new Error('ledger store unavailable');
    kit.broadcasts.failWhen = (method, call) => (method === 'claimRecipient' && call >= 7 ? storeDown : undefined);

    await expect(kit.run(message)).rejects.toBe(storeDown);
    const sent = kit.upstream.sends.length;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(10);
    const entries = kit.broadcasts.entriesOf(message.jobId, 0);
    expect(statusCounts(entries)).toEqual({ SENT: sent });
    expect(entries.map((entry) => entry.to).sort()).toEqual(kit.upstream.sends.map((send) => send.to).sort());
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ sent });
    expect(kit.broadcasts.chunk(message.jobId, 0)!.doneAt).toBeUndefined();
    expect(kit.queue.batches).toHaveLength(0);
    expect(kit.broadcasts.callsOf('reconcileChunk')).toBe(0);
  });

  it('stops and throws when writing outcomes fails', async () => {
    const kit = setup({ settings: { maxInFlight: 2, outcomeBatchSize: 3 } });
    const message = chunkMessage(30);
    await kit.createJob(message);
    const writeFailed = new Error('batch write failed');
    kit.broadcasts.failWhen = (method) => (method === 'recordOutcomes' ? writeFailed : undefined);
    await expect(kit.run(message)).rejects.toBe(writeFailed);
    expect(kit.upstream.sends.length).toBeLessThan(30);
    expect(kit.queue.batches).toHaveLength(0);
  });

  it('writes outcomes in batches of outcomeBatchSize, in order', async () => {
    const kit = setup({ rate: 1000, settings: { maxInFlight: 1, outcomeBatchSize: 25, flushIntervalMs: 60_000 } });
    const message = chunkMessage(60);
    await kit.createJob(message);
    const batches: number[][] = [];
    const original = kit.broadcasts.recordOutcomes.bind(kit.broadcasts);
    kit.broadcasts.recordOutcomes = async (jobId, chunkIndex, entries) => {
      batches.push(entries.map((entry) => entry.index));
      return original(jobId, chunkIndex, entries);
    };
    await kit.run(message);
    expect(batches.map((batch) => batch.length)).toEqual([25, 25, 10]);
    expect(batches.flat()).toEqual(Array.from({ length: 60 }, (_, index) => index));
  });

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

describe('abandonOutboundChunk', () => {
  it('fails unclaimed recipients as WORKER_ERROR, turns crashed claims UNKNOWN and finishes the chunk', async () => {
    const kit = setup();
    const message = chunkMessage(10);
    await kit.createJob(message);
    const now = new Date(START);
    for (const [index, to] of message.recipients.slice(0, 3)) {
      await kit.broadcasts.claimRecipient(message.jobId, 0, index, to, now);
      await kit.broadcasts.recordOutcomes(message.jobId, 0, [{ index, to, status: 'SENT', messageId: `wamid.${index}`, attempts: 1, updatedAt: START }]);
    }
    await kit.broadcasts.addChunkProgress(message.jobId, 0, { sent: 3, failed: 0, unknown: 0, failuresByReason: {} });
    await kit.broadcasts.claimRecipient(message.jobId, 0, 3, message.recipients[3]![1], now);

    await abandonOutboundChunk(kit.dependencies, message);

    expect(kit.upstream.sends).toHaveLength(0);
    const entries = kit.broadcasts.entriesOf(message.jobId, 0);
    expect(statusCounts(entries)).toEqual({ SENT: 3, UNKNOWN: 1, FAILED: 6 });
    expect(entries.filter((entry) => entry.status === 'FAILED').every((entry) => entry.failureReasonCode === 'WORKER_ERROR' && entry.attempts === 0)).toBe(true);
    expect(entries[3]).toMatchObject({ status: 'UNKNOWN' });
    const [progress] = await kit.broadcasts.getChunkProgress(message.jobId);
    expect(progress).toMatchObject({ sent: 3, failed: 6, unknown: 1, failuresByReason: { WORKER_ERROR: 6 }, done: true });
  });
});

describe('failureReasonOf', () => {
  it('names undeliverable numbers and keeps other codes', () => {
    const reasonOf = (code: number, message = 'x') => failureReasonOf(rejected(code, 400, message) as Extract<ReturnType<typeof rejected>, { kind: 'rejected' }>);
    expect(reasonOf(131026)).toBe('INVALID_PHONE_NUMBER');
    expect(reasonOf(100, 'Invalid parameter: recipient phone number')).toBe('INVALID_PHONE_NUMBER');
    expect(reasonOf(100, 'Invalid parameter: template name')).toBe('100');
    expect(reasonOf(131047)).toBe('131047');
  });
});

describe('processOutboundChunk when the job is cancelled', () => {
  it('stops taking recipients once the cancel is seen: no send starts later than the refresh interval after it, and the rest are claimed CANCELLED', async () => {
    const kit = setup({ rate: 20 });
    const message = chunkMessage(60);
    await kit.createJob(message);
    let cancelledAtMs: number | undefined;
    kit.upstream.onSend = async () => {
      if (kit.upstream.sends.length === 10) {
        cancelledAtMs = kit.time.nowMs();
        await kit.broadcasts.cancelJob(message.jobId, new Date(cancelledAtMs));
      }
    };
    const report = await kit.run(message);

    const sent = kit.upstream.sends.length;
    expect(sent).toBeGreaterThanOrEqual(10);
    expect(sent).toBeLessThan(60);
    expect(kit.upstream.sends.filter((send) => send.at > cancelledAtMs! + CANCELLATION_REFRESH_MS)).toEqual([]);
    // Sends under way finish and keep their outcome; nobody else was sent, nobody is left out.
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: sent, CANCELLED: 60 - sent });
    expect(report).toMatchObject({ sent, cancelled: 60 - sent, continued: 0, chunkDone: true });
    expect(kit.queue.batches).toHaveLength(0);
    // One read serves the lanes between refreshes: far fewer than one per send.
    expect(kit.broadcasts.callsOf('readJobControl')).toBeLessThan(sent);
  });

  it('sends nothing for a chunk picked up after the cancel: every recipient is CANCELLED and the chunk is done', async () => {
    const kit = setup();
    const message = chunkMessage(30);
    await kit.createJob(message);
    await kit.broadcasts.cancelJob(message.jobId, new Date(START));
    const report = await kit.run(message);

    expect(kit.upstream.sends).toHaveLength(0);
    expect(report).toEqual({ sent: 0, failed: 0, unknown: 0, skipped: 0, continued: 0, cancelled: 30, chunkDone: true });
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ CANCELLED: 30 });
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ doneAt: expect.any(String) });
  });

  it('leaves claims it does not hold alone: a crashed claim becomes UNKNOWN, a sent one stays SENT, and a repeat changes nothing', async () => {
    const kit = setup();
    const message = chunkMessage(5);
    await kit.createJob(message);
    const [crashed, crashedTo] = message.recipients[1]!;
    const [sentIndex, sentTo] = message.recipients[3]!;
    await kit.broadcasts.claimRecipient(message.jobId, 0, crashed, crashedTo, new Date(START));
    await kit.broadcasts.claimRecipient(message.jobId, 0, sentIndex, sentTo, new Date(START));
    await kit.broadcasts.recordOutcomes(message.jobId, 0, [{ index: sentIndex, to: sentTo, status: 'SENT', messageId: 'wamid.x', attempts: 1, updatedAt: START }]);
    await kit.broadcasts.cancelJob(message.jobId, new Date(START));

    const report = await kit.run(message);
    expect(report).toMatchObject({ sent: 0, unknown: 1, skipped: 1, cancelled: 3, chunkDone: true });
    expect(kit.broadcasts.entry(message.jobId, 0, crashed)).toMatchObject({ status: 'UNKNOWN' });
    expect(kit.broadcasts.entry(message.jobId, 0, sentIndex)).toMatchObject({ status: 'SENT', messageId: 'wamid.x' });

    const again = await kit.run(message);
    expect(again).toMatchObject({ cancelled: 0, skipped: 5, chunkDone: true });
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: 1, UNKNOWN: 1, CANCELLED: 3 });
    expect(kit.upstream.sends).toHaveLength(0);
  });
});

describe('processOutboundChunk when Meta pauses the job template', () => {
  const HOUR = 3_600_000;
  const templateEvent = (status: string, at: Date) => ({ name: 'order_update', language: 'en_US', status, templateId: 'tpl_1', at });
  const heldMessages = (kit: ReturnType<typeof setup>) => kit.queue.batches.map((batch) => ({ delaySeconds: batch.delaySeconds, recipients: batch.messages.flatMap((message) => message.recipients.map(([index]) => index)) }));

  it('sends nothing for a chunk picked up while the template is PAUSED: the job is paused with the reason and the whole chunk is held for the recheck', async () => {
    const kit = setup();
    const message = chunkMessage(30);
    await kit.createJob(message);
    await kit.templateStates.record(SENDER.wabaId, templateEvent('PAUSED', new Date(startMs + 1000)));

    const report = await kit.run(message);
    expect(kit.upstream.sends).toHaveLength(0);
    expect(report).toMatchObject({ sent: 0, failed: 0, held: 30, chunkDone: false });
    expect(kit.broadcasts.entriesOf(message.jobId, 0)).toEqual([]);
    expect(heldMessages(kit)).toEqual([{ delaySeconds: 60, recipients: message.recipients.map(([index]) => index) }]);
    expect(await kit.broadcasts.getJob(message.jobId)).toMatchObject({ pausedAt: START, pauseReason: 'TEMPLATE_PAUSED', pauseFailsAt: new Date(startMs + 3 * HOUR).toISOString() });
  });

  it('re-reads the job at the cancellation pace but the template state at most once a second (a refused send holds the job at once anyway)', async () => {
    // 20/s for 100 recipients: about 5 s of sending.
    const kit = setup({ rate: 20 });
    const message = chunkMessage(100);
    await kit.createJob(message);
    expect(await kit.run(message)).toMatchObject({ sent: 100, chunkDone: true });

    const seconds = (kit.time.nowMs() - startMs) / 1000;
    expect(seconds).toBeGreaterThan(4);
    const refreshMs = cancellationRefreshMs(20, baseSettings.maxInFlight);
    expect(refreshMs).toBeLessThan(TEMPLATE_STATE_REFRESH_MS);
    // The job item: at the cancellation pace; the template state: once at the start, then once per refresh.
    expect(kit.broadcasts.callsOf('readJobControl')).toBeGreaterThan(seconds * (1000 / refreshMs) * 0.5);
    expect(kit.templateStates.reads).toBeLessThanOrEqual(Math.ceil(seconds * (1000 / TEMPLATE_STATE_REFRESH_MS)) + 2);
  });

  it('ignores a state recorded before the job was accepted (the accept saw the template APPROVED)', async () => {
    const kit = setup();
    const message = chunkMessage(5);
    await kit.createJob(message);
    await kit.templateStates.record(SENDER.wabaId, templateEvent('PAUSED', new Date(startMs - 3 * HOUR)));
    expect(await kit.run(message)).toMatchObject({ sent: 5, chunkDone: true });
  });

  it('on 132015 mid-chunk: the refused recipients are released (not failed, not charged), no lane takes another, the rest is held and the job reads PAUSED', async () => {
    const kit = setup();
    const message = chunkMessage(60);
    await kit.createJob(message);
    kit.upstream.onSend = () => {
      if (kit.upstream.sends.length === 10) kit.upstream.defaultOutcome = () => rejected(132015, 400, 'Template is Paused');
    };
    const report = await kit.run(message);

    const entries = kit.broadcasts.entriesOf(message.jobId, 0);
    expect(statusCounts(entries)).toEqual({ SENT: 9 });
    // Every lane stops at its own refusal: at most one refused send per lane.
    expect(kit.upstream.sends.length).toBeLessThanOrEqual(9 + baseSettings.maxInFlight);
    expect(report).toMatchObject({ sent: 9, failed: 0, unknown: 0, held: 51, chunkDone: false });
    const sentIndexes = new Set(entries.map((entry) => entry.index));
    expect(heldMessages(kit)).toEqual([{ delaySeconds: 60, recipients: message.recipients.map(([index]) => index).filter((index) => !sentIndexes.has(index)) }]);
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ sent: 9, failed: 0, failuresByReason: {} });
    const job = (await kit.broadcasts.getJob(message.jobId))!;
    expect(job).toMatchObject({ pausedAt: expect.any(String), pauseReason: 'TEMPLATE_PAUSED' });
    expect(summarizeJob(job, await kit.broadcasts.getChunkProgress(message.jobId)).status).toBe('PAUSED');
  });

  it('names a disabled template (132016) as the reason', async () => {
    const kit = setup();
    const message = chunkMessage(8);
    await kit.createJob(message);
    kit.upstream.defaultOutcome = () => rejected(132016, 400, 'Template is Disabled');
    expect(await kit.run(message)).toMatchObject({ sent: 0, failed: 0, held: 8 });
    expect(kit.broadcasts.entriesOf(message.jobId, 0)).toEqual([]);
    expect(await kit.broadcasts.getJob(message.jobId)).toMatchObject({ pauseReason: 'TEMPLATE_DISABLED' });
  });

  it('resumes when the template is APPROVED again: the pause is cleared and the held rest is sent, each recipient once', async () => {
    const kit = setup();
    kit.setDeadline(startMs + HOUR);
    const message = chunkMessage(40);
    await kit.createJob(message);
    kit.upstream.onSend = () => {
      if (kit.upstream.sends.length === 5) kit.upstream.defaultOutcome = () => rejected(132015);
    };
    await kit.run(message);
    await kit.templateStates.record(SENDER.wabaId, templateEvent('PAUSED', new Date(kit.time.nowMs())));
    const held = kit.queue.batches[0]!.messages[0]! as TemplateChunkMessage;

    // Still paused at the recheck: held again, the pause keeps its first time.
    kit.time.advanceBy(60_000);
    const pausedAt = (await kit.broadcasts.getJob(message.jobId))!.pausedAt;
    expect(await kit.run(held)).toMatchObject({ sent: 0, held: held.recipients.length });
    expect((await kit.broadcasts.getJob(message.jobId))!.pausedAt).toBe(pausedAt);

    kit.time.advanceBy(60_000);
    await kit.templateStates.record(SENDER.wabaId, templateEvent('APPROVED', new Date(kit.time.nowMs())));
    kit.upstream.defaultOutcome = undefined;
    kit.upstream.onSend = undefined;
    const sendsBeforeResume = kit.upstream.sends.length;
    const report = await kit.run(kit.queue.batches[1]!.messages[0]! as TemplateChunkMessage);

    expect(report).toMatchObject({ sent: held.recipients.length, failed: 0, chunkDone: true });
    const job = (await kit.broadcasts.getJob(message.jobId))!;
    expect(job.pausedAt).toBeUndefined();
    expect(job.pauseReason).toBeUndefined();
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: 40 });
    // After the resume each held recipient got exactly one send, and nobody sent before got another.
    expect(kit.upstream.sends.slice(sendsBeforeResume).map((send) => send.to).sort()).toEqual(held.recipients.map(([, to]) => to).sort());
    expect(new Set(kit.broadcasts.entriesOf(message.jobId, 0).map((entry) => entry.messageId)).size).toBe(40);
    expect(summarizeJob(job, await kit.broadcasts.getChunkProgress(message.jobId)).status).toBe('COMPLETED');
  });

  it('resumes without an event when a send is accepted again (a pause known only from refused sends)', async () => {
    const kit = setup();
    kit.setDeadline(startMs + HOUR);
    const message = chunkMessage(20);
    await kit.createJob(message);
    kit.upstream.defaultOutcome = () => rejected(132015);
    await kit.run(message);
    expect((await kit.broadcasts.getJob(message.jobId))!.pausedAt).toBeDefined();

    kit.upstream.defaultOutcome = undefined;
    kit.time.advanceBy(60_000);
    expect(await kit.run(kit.queue.batches[0]!.messages[0]! as TemplateChunkMessage)).toMatchObject({ sent: 20, chunkDone: true });
    expect((await kit.broadcasts.getJob(message.jobId))!.pausedAt).toBeUndefined();
  });

  it('fails the rest TEMPLATE_PAUSED once the pause outlasts the timeout (claimed directly, never sent), and the job finishes', async () => {
    const kit = setup({ settings: { templatePauseTimeoutMs: 90_000 } });
    kit.setDeadline(startMs + HOUR);
    const message = chunkMessage(30);
    await kit.createJob(message);
    kit.upstream.onSend = () => {
      if (kit.upstream.sends.length === 10) kit.upstream.defaultOutcome = () => rejected(132015);
    };
    await kit.run(message);
    const sendsBefore = kit.upstream.sends.length;

    // The recheck comes at 60 s, then no later than the deadline (30 s after it).
    kit.time.advanceBy(60_000);
    await kit.run(kit.queue.batches[0]!.messages[0]! as TemplateChunkMessage);
    expect(kit.queue.batches[1]!.delaySeconds).toBeLessThanOrEqual(31);
    kit.time.advanceBy(31_000);
    const report = await kit.run(kit.queue.batches[1]!.messages[0]! as TemplateChunkMessage);

    const entries = kit.broadcasts.entriesOf(message.jobId, 0);
    expect(statusCounts(entries)).toEqual({ SENT: 9, FAILED: 21 });
    expect(entries.filter((entry) => entry.status === 'FAILED').every((entry) => entry.failureReasonCode === 'TEMPLATE_PAUSED')).toBe(true);
    expect(report).toMatchObject({ failed: 21, chunkDone: true });
    // The recheck that still found the template paused sent a few probes at most (refused, released); the timeout sent nothing.
    expect(kit.upstream.sends.length - sendsBefore).toBeLessThanOrEqual(baseSettings.maxInFlight);
    expect(kit.queue.batches).toHaveLength(2);
    const job = (await kit.broadcasts.getJob(message.jobId))!;
    const { status, summary } = summarizeJob(job, await kit.broadcasts.getChunkProgress(message.jobId));
    expect(status).toBe('COMPLETED_WITH_FAILURES');
    expect(summary.failuresByReason).toEqual({ TEMPLATE_PAUSED: 21 });
  });

  it('cancelled while paused: the held rest is claimed CANCELLED when it comes back, nothing is sent', async () => {
    const kit = setup();
    kit.setDeadline(startMs + HOUR);
    const message = chunkMessage(12);
    await kit.createJob(message);
    await kit.templateStates.record(SENDER.wabaId, templateEvent('PAUSED', new Date(startMs)));
    await kit.run(message);
    await kit.broadcasts.cancelJob(message.jobId, new Date(kit.time.nowMs()));
    kit.time.advanceBy(60_000);
    const report = await kit.run(kit.queue.batches[0]!.messages[0]! as TemplateChunkMessage);
    expect(report).toMatchObject({ cancelled: 12, chunkDone: true });
    expect(kit.upstream.sends).toHaveLength(0);
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ CANCELLED: 12 });
  });
});

describe('131049 (per-user marketing limit)', () => {
  it('is never retried at once: one call, FAILED with the code, nothing re-queued', async () => {
    const kit = setup();
    const message = chunkMessage(3);
    await kit.createJob(message);
    const [, limited] = message.recipients[1]!;
    kit.upstream.script(limited, rejected(131049, 400, 'This message was not delivered to maintain healthy ecosystem engagement.'));
    const report = await kit.run(message);
    expect(kit.upstream.sendsTo(limited)).toHaveLength(1);
    expect(kit.broadcasts.entry(message.jobId, 0, message.recipients[1]![0])).toMatchObject({ status: 'FAILED', failureReasonCode: '131049', attempts: 1 });
    expect(report).toMatchObject({ sent: 2, failed: 1, chunkDone: true });
    expect(kit.queue.batches).toHaveLength(0);
  });
});

describe('in-flight budget (Little\'s law)', () => {
  /** Every send takes `latencyMs` of virtual time; the most sends out at once is recorded. */
  const slowUpstream = (kit: ReturnType<typeof setup>, latencyMs: number) => {
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
  const spanMs = (kit: ReturnType<typeof setup>) => kit.upstream.sends[kit.upstream.sends.length - 1]!.at - kit.upstream.sends[0]!.at;

  it('keeps rate x latency sends in flight, so a 300 ms upstream still gets the account\'s 100/s (a fixed 16 lanes would get 53/s)', async () => {
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

  it('yields its concurrency slot: nothing claimed or sent, the same message re-queued, delayed by one chunk\'s time at the account\'s rate', async () => {
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

  it('sends when the schedule is booked less than a lane\'s time ahead, or only held after a rate-limit answer', async () => {
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
