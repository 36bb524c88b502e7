import { summarizeJob, type BroadcastJob, type ChunkProgress } from '../../../shared/broadcast/broadcast-job';
import { tallyCodes } from '../../../shared/delivery/recipient-status';

const job: BroadcastJob = {
  kind: 'template',
  jobId: 'pub_1',
  organizationId: 'org_1',
  broadcastName: 'b',
  exposed: true,
  wabaId: 'waba_1',
  phoneNumberId: 'pn_1',
  fromPhoneNumber: '919800000001',
  template: { name: 't', language: 'en_US', category: 'UTILITY', id: 'tpl' },
  totalRecipients: 1500,
  totalChunks: 2,
  chunkSize: 1000,
  createdAt: '2026-03-01T09:00:00.000Z',
};

const chunk = (chunkIndex: number, overrides: Partial<ChunkProgress> = {}): ChunkProgress => ({
  chunkIndex,
  recipientCount: chunkIndex === 0 ? 1000 : 500,
  sent: 0,
  failed: 0,
  unknown: 0,
  failuresByReason: {},
  started: false,
  done: false,
  ...overrides,
});

/** Jobs without tally codes (recorded before tallies, or not started) report no delivery facts. */
const noDelivery = { delivered: 0, read: 0, unconfirmed: 0 };

describe('summarizeJob', () => {
  it('is QUEUED_FOR_PROCESSING until a chunk has started, with everyone pending', () => {
    expect(summarizeJob(job, [chunk(0), chunk(1)])).toEqual({
      status: 'QUEUED_FOR_PROCESSING',
      summary: { sent: 0, failed: 0, unknown: 0, pending: 1500, chunksDone: 0, chunksTotal: 2, failuresByReason: {}, ...noDelivery },
    });
    // No chunk items at all (not yet written) reads the same.
    expect(summarizeJob(job, []).status).toBe('QUEUED_FOR_PROCESSING');
  });

  it('is PROCESSING once a chunk started; pending is what is not accounted for', () => {
    const { status, summary } = summarizeJob(job, [
      chunk(0, { started: true, sent: 300, failed: 20, unknown: 5, failuresByReason: { INVALID_PHONE_NUMBER: 20 } }),
      chunk(1),
    ]);
    expect(status).toBe('PROCESSING');
    expect(summary).toMatchObject({ sent: 300, failed: 20, unknown: 5, pending: 1175, chunksDone: 0 });
  });

  it('stays PROCESSING while a chunk is not done, even with every recipient counted', () => {
    const { status, summary } = summarizeJob(job, [chunk(0, { started: true, done: true, sent: 1000 }), chunk(1, { started: true, sent: 500 })]);
    expect(status).toBe('PROCESSING');
    expect(summary).toMatchObject({ pending: 0, chunksDone: 1 });
  });

  it('is COMPLETED when every chunk is done and every recipient was sent', () => {
    const { status, summary } = summarizeJob(job, [chunk(0, { started: true, done: true, sent: 1000 }), chunk(1, { started: true, done: true, sent: 500 })]);
    expect(status).toBe('COMPLETED');
    expect(summary).toEqual({ sent: 1500, failed: 0, unknown: 0, pending: 0, chunksDone: 2, chunksTotal: 2, failuresByReason: {}, ...noDelivery });
  });

  it('is COMPLETED_WITH_FAILURES when some failed or are unknown, adding failure reasons over chunks', () => {
    const { status, summary } = summarizeJob(job, [
      chunk(0, { started: true, done: true, sent: 995, failed: 4, unknown: 1, failuresByReason: { INVALID_PHONE_NUMBER: 3, '131049': 1 } }),
      chunk(1, { started: true, done: true, sent: 495, failed: 4, unknown: 1, failuresByReason: { INVALID_PHONE_NUMBER: 2, WORKER_ERROR: 2 } }),
    ]);
    expect(status).toBe('COMPLETED_WITH_FAILURES');
    expect(summary).toEqual({
      sent: 1490,
      failed: 8,
      unknown: 2,
      pending: 0,
      chunksDone: 2,
      chunksTotal: 2,
      failuresByReason: { INVALID_PHONE_NUMBER: 5, '131049': 1, WORKER_ERROR: 2 },
      ...noDelivery,
    });
    // Unknown outcomes alone also make it "with failures": not everyone is known to be sent.
    expect(summarizeJob(job, [chunk(0, { done: true, sent: 1000 }), chunk(1, { done: true, sent: 499, unknown: 1 })]).status).toBe('COMPLETED_WITH_FAILURES');
  });

  it('is FAILED when every chunk is done and nobody was sent', () => {
    const { status, summary } = summarizeJob(job, [
      chunk(0, { started: true, done: true, failed: 1000, failuresByReason: { WORKER_ERROR: 1000 } }),
      chunk(1, { started: true, done: true, failed: 499, unknown: 1, failuresByReason: { WORKER_ERROR: 499 } }),
    ]);
    expect(status).toBe('FAILED');
    expect(summary).toMatchObject({ sent: 0, failed: 1499, unknown: 1, pending: 0, failuresByReason: { WORKER_ERROR: 1499 } });
  });

  it('never reports negative pending when live counters run ahead of the ledger', () => {
    const { summary } = summarizeJob(job, [chunk(0, { started: true, sent: 1010 }), chunk(1, { started: true, sent: 520 })]);
    expect(summary.pending).toBe(0);
    expect(summary.sent).toBe(1530);
  });
});

describe('summarizeJob with tally codes', () => {
  const now = new Date('2026-03-02T12:00:00.000Z');
  const hour = 3_600_000;
  const reading = (codes: Array<[number, string]>, unconfirmedAfterMs = 24 * hour) => ({ codes, now, unconfirmedAfterMs });
  const done = (chunkIndex: number, overrides: Partial<ChunkProgress> = {}) => chunk(chunkIndex, { started: true, done: true, ...overrides });

  it("counts each recipient once by its one code: delivered and read are within sent, webhook failures within failed with Meta's code", () => {
    const codes: Array<[number, string]> = [
      [0, tallyCodes.sent],
      [1, tallyCodes.delivered],
      [2, tallyCodes.read],
      [3, tallyCodes.failedByWebhook(131049)],
      [4, tallyCodes.failedByWebhook(131049)],
      [5, tallyCodes.failedOnSend('INVALID_PHONE_NUMBER')],
      [6, tallyCodes.unknown(new Date(now.getTime() - hour))],
    ];
    const { summary } = summarizeJob(
      { ...job, totalRecipients: 10, totalChunks: 1 },
      [chunk(0, { started: true, recipientCount: 10, sent: 5, failed: 1, unknown: 1 })],
      reading(codes),
    );
    expect(summary).toEqual({
      sent: 3,
      delivered: 2,
      read: 1,
      failed: 3,
      failuresByReason: { '131049': 2, INVALID_PHONE_NUMBER: 1 },
      unknown: 1,
      unconfirmed: 0,
      pending: 3,
      chunksDone: 0,
      chunksTotal: 1,
    });
  });

  it('reads an unknown outcome as unconfirmed once the window has passed since it was recorded', () => {
    const codes: Array<[number, string]> = [
      [0, tallyCodes.unknown(new Date(now.getTime() - 25 * hour))],
      [1, tallyCodes.unknown(new Date(now.getTime() - 23 * hour))],
    ];
    const small = { ...job, totalRecipients: 2, totalChunks: 1 };
    expect(summarizeJob(small, [done(0, { recipientCount: 2, unknown: 2 })], reading(codes)).summary).toMatchObject({ unknown: 1, unconfirmed: 1, pending: 0 });
    // The window is the reader's setting: a shorter one confirms both as unconfirmed.
    expect(summarizeJob(small, [done(0, { recipientCount: 2, unknown: 2 })], reading(codes, 2 * hour)).summary).toMatchObject({ unknown: 0, unconfirmed: 2 });
  });

  it("merges the ledger's reasons and Meta's codes into one failuresByReason, over chunks", () => {
    const codes: Array<[number, string]> = [
      [0, tallyCodes.failedOnSend('131049')],
      [1000, tallyCodes.failedByWebhook(131049)],
      [1001, tallyCodes.failedByWebhook('131026')],
      [1002, tallyCodes.failedOnSend('WORKER_ERROR')],
    ];
    const { summary } = summarizeJob(job, [done(0), done(1)], reading(codes));
    expect(summary.failuresByReason).toEqual({ '131049': 2, '131026': 1, WORKER_ERROR: 1 });
    expect(summary.failed).toBe(4);
  });

  it('counts a chunk without any tally code from its chunk counters (jobs recorded before tallies)', () => {
    const codes: Array<[number, string]> = Array.from({ length: 500 }, (_, position): [number, string] => [1000 + position, tallyCodes.delivered]);
    const { summary } = summarizeJob(job, [done(0, { sent: 990, failed: 10, failuresByReason: { WORKER_ERROR: 10 } }), done(1, { sent: 500 })], reading(codes));
    expect(summary).toMatchObject({ sent: 1490, delivered: 500, failed: 10, failuresByReason: { WORKER_ERROR: 10 }, pending: 0 });
  });

  it('reads COMPLETED_WITH_FAILURES once a webhook fails a recipient of a finished all-sent job (never reopens it, never FAILED)', () => {
    const small = { ...job, totalRecipients: 2, totalChunks: 1 };
    const codes: Array<[number, string]> = [
      [0, tallyCodes.failedByWebhook(131050)],
      [1, tallyCodes.read],
    ];
    const { status, summary } = summarizeJob(small, [done(0, { recipientCount: 2, sent: 2 })], reading(codes));
    expect(status).toBe('COMPLETED_WITH_FAILURES');
    expect(summary).toMatchObject({ sent: 1, failed: 1, read: 1, failuresByReason: { '131050': 1 } });
    // Every accepted message failed later: Meta took them, so the job is not FAILED (nothing sent) but with failures.
    const allFailed: Array<[number, string]> = [
      [0, tallyCodes.failedByWebhook(131049)],
      [1, tallyCodes.failedByWebhook(131049)],
    ];
    expect(summarizeJob(small, [done(0, { recipientCount: 2, sent: 2 })], reading(allFailed)).status).toBe('COMPLETED_WITH_FAILURES');
    // A delivery reported after the failure wins (status precedence): the job reads COMPLETED again.
    expect(
      summarizeJob(
        small,
        [done(0, { recipientCount: 2, sent: 2 })],
        reading([
          [0, tallyCodes.delivered],
          [1, tallyCodes.read],
        ]),
      ).status,
    ).toBe('COMPLETED');
    // Still running: a webhook failure does not end or reopen anything.
    expect(summarizeJob(small, [chunk(0, { recipientCount: 2, sent: 1, started: true })], reading(codes)).status).toBe('PROCESSING');
  });
});

describe('summarizeJob of a cancelled job', () => {
  const cancelledJob: BroadcastJob = { ...job, cancelledAt: '2026-03-01T09:00:05.000Z' };
  const now = new Date('2026-03-01T09:01:00.000Z');
  /** Codes for recipients [first, first + count). */
  const codes = (first: number, count: number, code: string): Array<[number, string]> => Array.from({ length: count }, (_, offset) => [first + offset, code]);
  const tally = (...groups: Array<Array<[number, string]>>) => ({ codes: groups.flat(), now, unconfirmedAfterMs: 24 * 3600 * 1000 });

  it('reads CANCELLED once every chunk is done, counting the never-sent recipients as cancelled, apart from sent, failed and unknown', () => {
    const result = summarizeJob(
      cancelledJob,
      [chunk(0, { started: true, done: true, sent: 300 }), chunk(1, { started: true, done: true })],
      tally(
        codes(0, 300, tallyCodes.sent),
        codes(300, 2, tallyCodes.failedOnSend('131026')),
        codes(302, 1, tallyCodes.unknown(now)),
        codes(303, 1197, tallyCodes.cancelled),
      ),
    );
    expect(result.status).toBe('CANCELLED');
    expect(result.summary).toMatchObject({ sent: 300, failed: 2, unknown: 1, cancelled: 1197, pending: 0, chunksDone: 2, failuresByReason: { '131026': 2 } });
    const { sent, failed, unknown, cancelled } = result.summary;
    expect(sent + failed + unknown + cancelled!).toBe(job.totalRecipients);
  });

  it('reads CANCELLED when nobody is pending any more though a chunk is still settling', () => {
    const result = summarizeJob(
      cancelledJob,
      [chunk(0, { started: true, done: true }), chunk(1, { started: true })],
      tally(codes(0, 100, tallyCodes.sent), codes(100, 1400, tallyCodes.cancelled)),
    );
    expect(result.status).toBe('CANCELLED');
    expect(result.summary).toMatchObject({ sent: 100, cancelled: 1400, pending: 0 });
  });

  it('reads as before while its workers are still stopping (recipients pending, a chunk not done)', () => {
    const result = summarizeJob(cancelledJob, [chunk(0, { started: true, done: true }), chunk(1)], tally(codes(0, 1000, tallyCodes.cancelled)));
    expect(result.status).toBe('PROCESSING');
    expect(result.summary).toMatchObject({ cancelled: 1000, pending: 500 });
  });

  it('a cancel that withheld nobody (every recipient sent, failed or unknown before it took effect) leaves the state the sends earned', () => {
    const chunks = [chunk(0, { started: true, done: true, sent: 1000 }), chunk(1, { started: true, done: true, sent: 499, unknown: 1 })];
    const allSent = summarizeJob(
      cancelledJob,
      chunks.map((each) => ({ ...each, sent: each.recipientCount, unknown: 0 })),
      tally(codes(0, 1500, tallyCodes.sent)),
    );
    expect(allSent.status).toBe('COMPLETED');
    expect(allSent.summary).toMatchObject({ sent: 1500, cancelled: 0, pending: 0 });
    const oneUnknown = summarizeJob(cancelledJob, chunks, tally(codes(0, 1499, tallyCodes.sent), codes(1499, 1, tallyCodes.unknown(now))));
    expect(oneUnknown.status).toBe('COMPLETED_WITH_FAILURES');
    expect(oneUnknown.summary).toMatchObject({ sent: 1499, unknown: 1, cancelled: 0, pending: 0 });
  });

  it('nobody withheld and a chunk still settling: not CANCELLED (PROCESSING), so the end reads what the sends earned', () => {
    const result = summarizeJob(cancelledJob, [chunk(0, { started: true, done: true }), chunk(1, { started: true })], tally(codes(0, 1500, tallyCodes.sent)));
    expect(result.status).toBe('PROCESSING');
    expect(result.summary).toMatchObject({ sent: 1500, cancelled: 0, pending: 0 });
  });

  it('one recipient withheld is enough to read CANCELLED', () => {
    const result = summarizeJob(
      cancelledJob,
      [chunk(0, { started: true, done: true, sent: 1000 }), chunk(1, { started: true, done: true, sent: 499 })],
      tally(codes(0, 1499, tallyCodes.sent), codes(1499, 1, tallyCodes.cancelled)),
    );
    expect(result.status).toBe('CANCELLED');
    expect(result.summary).toMatchObject({ sent: 1499, cancelled: 1, pending: 0 });
  });

  it('leaves the summary of a job that was never cancelled as it was: no cancelled field', () => {
    const result = summarizeJob(
      job,
      [chunk(0, { started: true, done: true, sent: 1000 }), chunk(1, { started: true, done: true, sent: 500 })],
      tally(codes(0, 1500, tallyCodes.sent)),
    );
    expect(result.status).toBe('COMPLETED');
    expect(result.summary).not.toHaveProperty('cancelled');
  });

  it('reads CANCELLED at once when its accept failed part-way: recipients never queued are nobody a worker will settle', () => {
    const failedAccept: BroadcastJob = { ...cancelledJob, acceptFailedAt: '2026-03-01T09:00:01.000Z' };
    const result = summarizeJob(failedAccept, [chunk(0, { started: true }), chunk(1)], tally(codes(0, 40, tallyCodes.sent)));
    expect(result.status).toBe('CANCELLED');
    expect(result.summary).toMatchObject({ sent: 40, cancelled: 1460, pending: 0 });
    // Not cancelled, the same job reads as before: its unqueued recipients are pending.
    const waiting = summarizeJob(
      { ...job, acceptFailedAt: '2026-03-01T09:00:01.000Z' },
      [chunk(0, { started: true }), chunk(1)],
      tally(codes(0, 40, tallyCodes.sent)),
    );
    expect(waiting.status).toBe('PROCESSING');
    expect(waiting.summary).toMatchObject({ sent: 40, pending: 1460 });
  });
});
