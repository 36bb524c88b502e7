/**
 * The messaging table's item shapes: jobs written by the accept paths read back equal, jobs written
 * before jobs had a kind are read as their kind (no fake template), and an item that matches no
 * shape is an error instead of a wrongly typed value.
 */
import type { BroadcastJob } from '../../../shared/broadcast/broadcast-job';
import { decodeChunk, decodeJob, jobItem } from '../../../shared/adapters/dynamodb/messaging-job-items';
import { decodeLedgerEntry } from '../../../shared/adapters/dynamodb/messaging-ledger-items';
import { MalformedMessagingItemError, messagingKeys } from '../../../shared/adapters/dynamodb/messaging-table';

const common = {
  organizationId: 'org_1',
  exposed: false,
  wabaId: 'waba_1',
  phoneNumberId: 'pn_1',
  fromPhoneNumber: '919800000001',
  totalRecipients: 1,
  totalChunks: 1,
  chunkSize: 1000,
  createdAt: '2026-03-01T09:00:00.000Z',
};
const templateRef = { name: 'order_update', language: 'en_US', category: 'UTILITY', id: 'tpl_1' };
/** Item attributes the table adds around a job. */
const stored = (attributes: Record<string, unknown>) => ({
  pk: `JOB#${String(attributes.jobId)}`,
  sk: 'JOB',
  gsi1pk: 'ORG#org_1#JOBS',
  gsi1sk: common.createdAt,
  expiresAt: 1,
  ...attributes,
});

describe('messaging table items', () => {
  it.each<BroadcastJob>([
    { ...common, jobId: 'pub_1', kind: 'template', broadcastName: 'spring', template: templateRef },
    { ...common, jobId: 'leg_1', kind: 'earlier', mode: 'bulk', broadcastName: 'spring', template: templateRef },
    { ...common, jobId: 'leg_2', kind: 'earlier', mode: 'single', template: templateRef },
    { ...common, jobId: 'msg_1', kind: 'freeform', messageType: 'interactive' },
  ])('reads a $kind job back as written ($jobId)', (job) => {
    const item = jobItem(job);
    expect(item).toMatchObject({ ...messagingKeys.job(job.jobId), ...messagingKeys.organizationJobs(job.organizationId, job.createdAt) });
    expect(decodeJob(item)).toEqual(job);
  });

  it('reads jobs stored before jobs had a kind', () => {
    expect(
      decodeJob(
        stored({ ...common, jobId: 'msg_1', broadcastName: 'freeform:text', template: { name: 'freeform:text', language: '', category: 'FREEFORM', id: '' } }),
      ),
    ).toEqual({
      ...common,
      jobId: 'msg_1',
      kind: 'freeform',
      messageType: 'text',
    });
    expect(decodeJob(stored({ ...common, jobId: 'leg_1', broadcastName: 'single:order_update', template: templateRef }))).toEqual({
      ...common,
      jobId: 'leg_1',
      kind: 'earlier',
      mode: 'single',
      template: templateRef,
    });
    expect(decodeJob(stored({ ...common, jobId: 'leg_2', broadcastName: 'Spring', template: templateRef }))).toMatchObject({
      kind: 'earlier',
      mode: 'bulk',
      broadcastName: 'Spring',
    });
    expect(decodeJob(stored({ ...common, jobId: 'pub_1', broadcastName: 'b', template: templateRef }))).toMatchObject({ kind: 'template', broadcastName: 'b' });
  });

  it('refuses items that match no shape', () => {
    expect(() => decodeJob(stored({ ...common, jobId: 'pub_1', kind: 'template', template: templateRef }))).toThrow(MalformedMessagingItemError);
    expect(() => decodeJob(stored({ ...common, jobId: 'pub_1', kind: 'template', broadcastName: 'b', template: templateRef, totalRecipients: '3' }))).toThrow(
      MalformedMessagingItemError,
    );
    expect(() => decodeChunk({ ...messagingKeys.chunk('pub_1', 0), chunkIndex: 0 })).toThrow(MalformedMessagingItemError);
    expect(() => decodeLedgerEntry({ index: 0, to: '1', status: 'DONE', attempts: 0, updatedAt: 'x' })).toThrow(MalformedMessagingItemError);
  });

  it('reads chunk counters and failure reasons', () => {
    expect(
      decodeChunk({ ...messagingKeys.chunk('pub_1', 2), chunkIndex: 2, recipientCount: 10, sent: 3, 'fail#131026': 2, 'fail#x': 0, startedAt: 't' }),
    ).toEqual({
      chunkIndex: 2,
      recipientCount: 10,
      sent: 3,
      failed: 0,
      unknown: 0,
      failuresByReason: { '131026': 2 },
      started: true,
      done: false,
    });
  });
});
