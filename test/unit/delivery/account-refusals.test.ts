/**
 * A `failed` status refusing the business account (131042, a payment problem) holds the broadcast
 * job and the account's other running jobs (docs/BROADCAST.md "When Meta refuses the account").
 */
import { applyWebhookBatch, type DeliveryEventPorts } from '../../../shared/delivery/apply-webhook-batch';
import { callbackDataOf } from '../../../shared/delivery/callback-data';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { BroadcastAccountRefusals } from '../../../shared/module-bridges/broadcast-account-refusals';
import type { CustomerEvent } from '../../../shared/customer-events/ports';
import { InMemoryBroadcastRepository, VirtualTime, chunkMessage, jobOf } from '../../support/broadcast-fakes';
import { FakeLedgerDeliveryStore, FakeOwnerDirectory, RecordingLog, statusOf, webhookBody } from '../../support/delivery-fakes';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const T0 = Math.floor(NOW.getTime() / 1000) - 60;

describe('a failed status with a refusal of the account', () => {
  function deliveryKit() {
    const owners = new FakeOwnerDirectory();
    owners.phoneNumbers.set('pn_a', { organizationId: 'org_a', wabaId: 'waba-a' });
    const ledger = new FakeLedgerDeliveryStore();
    ledger.addJob('job_1', 'org_a', 'pn_a');
    for (let index = 0; index < 3; index += 1)
      ledger.addEntry('job_1', 0, index, { status: 'SENT', updatedAt: NOW.toISOString(), messageId: `wamid.${index}`, tallyCode: tallyCodes.sent });
    const refusals: Array<{ jobId: string; code: number }> = [];
    const ports: DeliveryEventPorts = {
      owners,
      ledger,
      log: new RecordingLog(),
      accountRefusals: { failedWith: async (jobId, error) => void refusals.push({ jobId, code: error.code }) },
    };
    const failed = (index: number, code: number) =>
      webhookBody([
        {
          phoneNumberId: 'pn_a',
          statuses: [
            statusOf({
              id: `wamid.${index}`,
              status: 'failed',
              timestamp: T0,
              callbackData: callbackDataOf({ kind: 'ledger', jobId: 'job_1', chunkIndex: 0, index }),
              error: { code, title: `error ${code}` },
            }),
          ],
        },
      ]);
    return { ports, refusals, failed };
  }

  it('tells the sink of each broadcast recipient’s failure once (a duplicate adds nothing), with the job and the code', async () => {
    const kit = deliveryKit();
    await applyWebhookBatch(kit.ports, kit.failed(0, 131042), NOW);
    await applyWebhookBatch(kit.ports, kit.failed(0, 131042), NOW);
    await applyWebhookBatch(
      kit.ports,
      webhookBody([
        {
          phoneNumberId: 'pn_a',
          statuses: [
            statusOf({
              id: 'wamid.1',
              status: 'delivered',
              timestamp: T0,
              callbackData: callbackDataOf({ kind: 'ledger', jobId: 'job_1', chunkIndex: 0, index: 1 }),
            }),
          ],
        },
      ]),
      NOW,
    );
    expect(kit.refusals).toEqual([{ jobId: 'job_1', code: 131042 }]);
  });

  function bridgeKit() {
    const broadcasts = new InMemoryBroadcastRepository();
    const published: CustomerEvent[] = [];
    const time = new VirtualTime(NOW.toISOString());
    const sink = new BroadcastAccountRefusals({ broadcasts, clock: time, events: { publish: async (_organizationId, event) => void published.push(event) } });
    return { broadcasts, published, sink, time };
  }

  it('131042 holds the job (and its sibling on the account) until resumed, with Meta’s words; job.paused is published for each', async () => {
    const kit = bridgeKit();
    const job = chunkMessage(4, { jobId: 'pub_a' });
    const sibling = chunkMessage(4, { jobId: 'pub_b' });
    await kit.broadcasts.createJob(jobOf(job, [4], NOW.toISOString()), [4]);
    await kit.broadcasts.createJob(jobOf(sibling, [4], NOW.toISOString()), [4]);
    await kit.sink.failedWith('pub_a', { code: 131042, title: 'Business eligibility payment issue' });

    for (const jobId of ['pub_a', 'pub_b']) {
      const stored = await kit.broadcasts.getJob(jobId);
      expect(stored).toMatchObject({
        pausedAt: NOW.toISOString(),
        pauseReason: 'ACCOUNT_PAYMENT_ISSUE',
        pausedBy: 'meta',
        pauseCode: 131042,
        pauseText: 'Business eligibility payment issue',
      });
      expect(stored!.pauseFailsAt).toBeUndefined();
    }
    expect(kit.published.map((event) => [event.type, event.data.jobId])).toEqual([
      ['job.paused', 'pub_a'],
      ['job.paused', 'pub_b'],
    ]);
    // A later failure of the same kind changes nothing and announces nothing again.
    kit.time.advanceBy(1_000);
    await kit.sink.failedWith('pub_a', { code: 131042, title: 'Business eligibility payment issue' });
    expect(kit.published).toHaveLength(2);
  });

  it('other failures hold nothing', async () => {
    const kit = bridgeKit();
    await kit.broadcasts.createJob(jobOf(chunkMessage(4, { jobId: 'pub_a' }), [4], NOW.toISOString()), [4]);
    await kit.sink.failedWith('pub_a', { code: 131026, title: 'Message undeliverable' });
    expect((await kit.broadcasts.getJob('pub_a'))!.pausedAt).toBeUndefined();
    expect(kit.published).toEqual([]);
  });
});
