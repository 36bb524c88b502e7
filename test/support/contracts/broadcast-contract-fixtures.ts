/** Fixtures shared by the broadcast stores' contract suites: fresh job ids (the stores are shared by a run's tests), one job shape, one outcome shape. */
import type { BroadcastJob } from '../../../shared/broadcast/broadcast-job';
import type { LedgerEntry } from '../../../shared/broadcast/ports';

let sequence = 0;
export const freshJobId = () => `pub_contract${process.pid}x${Date.now().toString(36)}x${(sequence += 1)}`;
export const now = new Date('2026-05-04T08:00:00.000Z');
export const later = new Date('2026-05-04T08:05:00.000Z');

export const job = (jobId: string, totalRecipients: number, chunkSize: number): Extract<BroadcastJob, { kind: 'template' }> => ({
  kind: 'template',
  jobId,
  organizationId: 'org_contract',
  broadcastName: 'contract',
  exposed: true,
  wabaId: 'waba_1',
  phoneNumberId: 'pn_1',
  fromPhoneNumber: '15550001111',
  template: { name: 'order_update', language: 'en_US', category: 'UTILITY', id: 'tpl_1' },
  totalRecipients,
  totalChunks: Math.ceil(totalRecipients / chunkSize),
  chunkSize,
  createdAt: now.toISOString(),
});

export const outcome = (index: number, status: LedgerEntry['status'], extra: Partial<LedgerEntry> = {}): LedgerEntry => ({
  index,
  to: `9198000000${index}`,
  status,
  attempts: 1,
  updatedAt: later.toISOString(),
  ...extra,
});
