/** `message.status` of a campaign's job's recipients carries `campaignId`; other jobs' events are unchanged (docs/CUSTOMER-WEBHOOKS.md). */
import { applyWebhookBatch, type DeliveryEventPorts } from '../../../shared/delivery/apply-webhook-batch';
import { callbackDataOf } from '../../../shared/delivery/callback-data';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { FakeLedgerDeliveryStore, FakeOwnerDirectory, RecordingLog, statusOf, webhookBody } from '../../support/delivery-fakes';
import { RecordingPublisher } from '../../support/webhook-fakes';

const NOW = new Date('2026-12-01T10:00:00.000Z');
const T0 = Math.floor(NOW.getTime() / 1000) - 60;

it('message.status carries campaignId for a campaign job, and no such field otherwise', async () => {
  const owners = new FakeOwnerDirectory();
  owners.phoneNumbers.set('pn_a', { organizationId: 'org_a', wabaId: 'waba-a' });
  const ledger = new FakeLedgerDeliveryStore();
  ledger.addJob('pub_campaign', 'org_a', 'pn_a', 1000, 'cmp_1');
  ledger.addJob('pub_plain', 'org_a', 'pn_a', 1000);
  for (const jobId of ['pub_campaign', 'pub_plain'])
    ledger.addEntry(jobId, 0, 0, { status: 'SENT', updatedAt: NOW.toISOString(), messageId: `wamid.${jobId}`, tallyCode: tallyCodes.sent });
  const events = new RecordingPublisher();
  const ports: DeliveryEventPorts = { owners, ledger, log: new RecordingLog(), events };
  const statuses = ['pub_campaign', 'pub_plain'].map((jobId) =>
    statusOf({ id: `wamid.${jobId}`, status: 'delivered', timestamp: T0, callbackData: callbackDataOf({ kind: 'ledger', jobId, chunkIndex: 0, index: 0 }) }),
  );
  await applyWebhookBatch(ports, webhookBody([{ phoneNumberId: 'pn_a', statuses }]), NOW, { redelivered: false });
  const byJob = new Map(events.published.map(({ event }) => [event.data.jobId, event.data]));
  expect(byJob.get('pub_campaign')).toMatchObject({ campaignId: 'cmp_1', status: 'DELIVERED' });
  expect(byJob.get('pub_plain')).not.toHaveProperty('campaignId');
});
