/** The chunk worker: claims, sends, retries and holds, outcomes, store failures (shared/broadcast/chunk-worker/). */
import { SENDER, chunkMessage, rejected, unknownOutcome } from '../../support/broadcast-fakes';
import { START, setup, statusCounts } from './chunk-worker-kit';

describe('processOutboundChunk', () => {
  it('sends each recipient once with its template body and records SENT with the message id', async () => {
    const kit = setup();
    const message = chunkMessage(10);
    await kit.createJob(message);
    const report = await kit.run(message);

    expect(report).toEqual({ sent: 10, failed: 0, unknown: 0, skipped: 0, continued: 0, chunkDone: true });
    // Four lanes interleave, so sends are not in request order; each recipient gets exactly one.
    expect(kit.upstream.sends.map((send) => send.to).sort()).toEqual(message.recipients.map(({ to }) => to).sort());
    expect(kit.upstream.sendsTo(message.recipients[3]!.to)[0]).toMatchObject({
      phoneNumberId: SENDER.phoneNumberId,
      accessToken: SENDER.accessToken,
      body: {
        messaging_product: 'whatsapp',
        to: message.recipients[3]!.to,
        type: 'template',
        template: { name: 'order_update', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Name3' }] }] },
        // Its ledger entry, so Meta's events find the recipient even if this send's outcome is unknown.
        biz_opaque_callback_data: `b1:${message.jobId}:0:${message.recipients[3]!.index}`,
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
    const { index, to } = message.recipients[2]!;
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
    const { to: stormy } = message.recipients[0]!;
    const { to: hopeless } = message.recipients[1]!;
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
    const { to: always } = message.recipients[0]!;
    const { to: twice } = message.recipients[1]!;
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
    const { to } = message.recipients[0]!;
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
    const { to: first } = message.recipients[0]!;
    const { to: second } = message.recipients[1]!;
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
    const { to } = message.recipients[0]!;
    kit.upstream.script(to, rejected(130429, 400));
    await kit.run(message);
    const firstAt = kit.upstream.sendsTo(to)[0]!.at;
    expect(kit.pacer.holds).toEqual([{ accountKey: SENDER.wabaId, untilMs: firstAt + 1000 }]);
  });

  it('does not retry a send of unknown outcome', async () => {
    const kit = setup();
    const message = chunkMessage(3);
    await kit.createJob(message);
    const { to } = message.recipients[1]!;
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
    kit.upstream.script(message.recipients[0]!.to, rejected(131026, 400, 'Message undeliverable'));
    kit.upstream.script(message.recipients[1]!.to, rejected(100, 400, "Invalid parameter 'to'"));
    kit.upstream.script(message.recipients[2]!.to, rejected(132001, 404, 'Template name does not exist in the translation'));

    const report = await kit.run(message);
    expect(report).toMatchObject({ sent: 1, failed: 3 });
    expect(kit.upstream.sends).toHaveLength(4);
    expect(kit.broadcasts.entry(message.jobId, 0, 0)).toMatchObject({ status: 'FAILED', failureReasonCode: 'INVALID_PHONE_NUMBER' });
    expect(kit.broadcasts.entry(message.jobId, 0, 1)).toMatchObject({ status: 'FAILED', failureReasonCode: 'INVALID_PHONE_NUMBER' });
    expect(kit.broadcasts.entry(message.jobId, 0, 2)).toMatchObject({ status: 'FAILED', failureReasonCode: '132001' });
    expect(kit.broadcasts.chunk(message.jobId, 0)!.failuresByReason).toEqual({ INVALID_PHONE_NUMBER: 2, '132001': 1 });
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
    const { batches } = watchOutcomeWrites(kit);
    await kit.run(message);
    expect(batches.map((batch) => batch.length)).toEqual([25, 25, 10]);
    expect(batches.flat()).toEqual(Array.from({ length: 60 }, (_, index) => index));
  });
});

/** Each outcome write's recipient indexes and each progress write's sent count, in the order the kit's store saw them. */
function watchOutcomeWrites(kit: ReturnType<typeof setup>): { batches: number[][]; progressSent: number[] } {
  const batches: number[][] = [];
  const progressSent: number[] = [];
  const recordOutcomes = kit.broadcasts.recordOutcomes.bind(kit.broadcasts);
  const addChunkProgress = kit.broadcasts.addChunkProgress.bind(kit.broadcasts);
  kit.broadcasts.recordOutcomes = async (jobId, chunkIndex, entries) => {
    batches.push(entries.map((entry) => entry.index));
    return recordOutcomes(jobId, chunkIndex, entries);
  };
  kit.broadcasts.addChunkProgress = async (jobId, chunkIndex, delta) => {
    progressSent.push(delta.sent);
    return addChunkProgress(jobId, chunkIndex, delta);
  };
  return { batches, progressSent };
}

describe('outcome groups', () => {
  it('a flush due by count holds back the outcome group it holds in part; the next flush writes it whole, the final one everything', async () => {
    const kit = setup({ rate: 1000, settings: { maxInFlight: 1, outcomeBatchSize: 25, ledgerPageSize: 8, flushIntervalMs: 60_000 } });
    const message = chunkMessage(60);
    await kit.createJob(message);
    const { batches, progressSent } = watchOutcomeWrites(kit);
    const report = await kit.run(message);
    // 0–24 due: 24 (group 3's first) held; 24–48 due: 48 held; the final flush writes the rest.
    expect(batches.map((batch) => batch.length)).toEqual([24, 24, 12]);
    // The live counters never run ahead of the ledger: each progress write counts only the entries written before it.
    expect(progressSent).toEqual([24, 24, 12]);
    expect(batches.flat()).toEqual(Array.from({ length: 60 }, (_, index) => index));
    expect(batches.slice(0, 2).every((batch) => batch.length % 8 === 0 && batch[0]! % 8 === 0)).toBe(true);
    expect(report).toMatchObject({ sent: 60, chunkDone: true });
  });
});

describe('131049 (per-user marketing limit)', () => {
  it('is never retried at once: one call, FAILED with the code, nothing re-queued', async () => {
    const kit = setup();
    const message = chunkMessage(3);
    await kit.createJob(message);
    const { to: limited } = message.recipients[1]!;
    kit.upstream.script(limited, rejected(131049, 400, 'This message was not delivered to maintain healthy ecosystem engagement.'));
    const report = await kit.run(message);
    expect(kit.upstream.sendsTo(limited)).toHaveLength(1);
    expect(kit.broadcasts.entry(message.jobId, 0, message.recipients[1]!.index)).toMatchObject({ status: 'FAILED', failureReasonCode: '131049', attempts: 1 });
    expect(report).toMatchObject({ sent: 2, failed: 1, chunkDone: true });
    expect(kit.queue.batches).toHaveLength(0);
  });
});
