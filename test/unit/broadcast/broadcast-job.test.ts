import { summarizeJob, type BroadcastJob, type ChunkProgress } from '../../../shared/broadcast/broadcast-job';

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

describe('summarizeJob', () => {
  it('is QUEUED_FOR_PROCESSING until a chunk has started, with everyone pending', () => {
    expect(summarizeJob(job, [chunk(0), chunk(1)])).toEqual({
      status: 'QUEUED_FOR_PROCESSING',
      summary: { sent: 0, failed: 0, unknown: 0, pending: 1500, chunksDone: 0, chunksTotal: 2, failuresByReason: {} },
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
    expect(summary).toEqual({ sent: 1500, failed: 0, unknown: 0, pending: 0, chunksDone: 2, chunksTotal: 2, failuresByReason: {} });
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
    });
    // Unknown outcomes alone also make it "with failures": not everyone is known to be sent.
    expect(summarizeJob(job, [chunk(0, { done: true, sent: 1000 }), chunk(1, { done: true, sent: 499, unknown: 1 })]).status).toBe(
      'COMPLETED_WITH_FAILURES',
    );
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
