/**
 * A campaign's job is open-ended: created without recipients, appended to by the expander, closed
 * at the end. While open it never reads finished, and job.completed (with campaign.completed) goes
 * out only once it is closed and every chunk is done, whichever of the two comes last.
 */
import { announceJobCompletion } from '../../../shared/broadcast/announce-job-completion';
import { summarizeJob, type BroadcastJob, type ChunkProgress } from '../../../shared/broadcast/broadcast-job';
import type { CustomerEvent } from '../../../shared/customer-events/ports';
import { InMemoryBroadcastRepository } from '../../support/broadcast-stores/in-memory-broadcast-repository';

const openJob: BroadcastJob = {
  kind: 'template',
  jobId: 'pub_campaign',
  organizationId: 'org_1',
  broadcastName: 'Spring',
  exposed: true,
  wabaId: 'waba_1',
  phoneNumberId: 'pn_1',
  fromPhoneNumber: '919800000001',
  template: { name: 't', language: 'en_US', category: 'MARKETING', id: 'tpl' },
  totalRecipients: 0,
  totalChunks: 0,
  chunkSize: 1000,
  createdAt: '2026-03-01T09:00:00.000Z',
  campaignId: 'cmp_1',
  expansion: 'open',
};

const doneChunk = (chunkIndex: number, sent: number): ChunkProgress => ({
  chunkIndex,
  recipientCount: sent,
  sent,
  failed: 0,
  unknown: 0,
  failuresByReason: {},
  started: true,
  done: true,
});

describe('an open-ended (campaign) job', () => {
  it('never reads finished while open, even with no chunk or every chunk done', () => {
    expect(summarizeJob(openJob, []).status).toBe('QUEUED_FOR_PROCESSING');
    expect(summarizeJob({ ...openJob, totalRecipients: 3, totalChunks: 1 }, [doneChunk(0, 3)]).status).toBe('PROCESSING');
    expect(summarizeJob({ ...openJob, totalRecipients: 3, totalChunks: 1, cancelledAt: '2026-03-01T09:01:00.000Z' }, [doneChunk(0, 3)]).status).toBe(
      'PROCESSING',
    );
    expect(summarizeJob({ ...openJob, totalRecipients: 3, totalChunks: 1, expansion: 'done' }, [doneChunk(0, 3)]).status).toBe('COMPLETED');
    // Closed by a cancel before every member was read: the cancel withheld the rest, whatever the chunks sent.
    const cancelledAt = '2026-03-01T09:01:00.000Z';
    expect(summarizeJob({ ...openJob, totalRecipients: 3, totalChunks: 1, expansion: 'stopped', cancelledAt }, [doneChunk(0, 3)]).status).toBe('CANCELLED');
    expect(summarizeJob({ ...openJob, expansion: 'stopped', cancelledAt }, []).status).toBe('CANCELLED');
  });

  async function setUp() {
    const broadcasts = new InMemoryBroadcastRepository();
    const published: CustomerEvent[] = [];
    const ports = {
      broadcasts,
      clock: { now: () => new Date('2026-03-01T10:00:00.000Z') },
      events: { publish: async (_: string, event: CustomerEvent) => void published.push(event) },
    };
    await broadcasts.createJob(openJob, []);
    await broadcasts.appendChunks(openJob.jobId, 0, [1], [{ index: 0, countryCode: '91', toPhoneNumber: '9800000002' }]);
    return { broadcasts, published, ports };
  }

  async function settleChunk(broadcasts: InMemoryBroadcastRepository) {
    const now = new Date('2026-03-01T09:30:00.000Z');
    await broadcasts.claimRecipient(openJob.jobId, 0, 0, '919800000002', now);
    await broadcasts.recordOutcomes(openJob.jobId, 0, [{ index: 0, to: '919800000002', status: 'SENT', attempts: 1, updatedAt: now.toISOString() }]);
    await broadcasts.addChunkProgress(openJob.jobId, 0, { sent: 1, failed: 0, unknown: 0, failuresByReason: {} });
    await broadcasts.reconcileChunk(openJob.jobId, 0, now);
  }

  it('the last chunk settling before the close announces nothing; the close announces once', async () => {
    const { broadcasts, published, ports } = await setUp();
    await settleChunk(broadcasts);
    expect(await announceJobCompletion(ports, openJob.jobId)).toBe(false);
    await broadcasts.closeExpansion(openJob.jobId, { totalRecipients: 1, totalChunks: 1 });
    expect(await announceJobCompletion(ports, openJob.jobId)).toBe(true);
    expect(published.map((event) => event.type)).toEqual(['campaign.completed', 'job.completed']);
    expect(published[0]!.data).toMatchObject({ campaignId: 'cmp_1', jobId: openJob.jobId, status: 'COMPLETED' });
  });

  it('the close before the last chunk settles announces nothing; the settling announces', async () => {
    const { broadcasts, published, ports } = await setUp();
    await broadcasts.closeExpansion(openJob.jobId, { totalRecipients: 1, totalChunks: 1 });
    expect(await announceJobCompletion(ports, openJob.jobId)).toBe(false);
    await settleChunk(broadcasts);
    expect(await announceJobCompletion(ports, openJob.jobId)).toBe(true);
    expect(new Set(published.map((event) => event.id)).size).toBe(2);
  });
});
