/**
 * The delivery-events function's records: one queue delivery applied together, each record failing
 * alone (partial batch response, deferred for a quick retry), the whole invocation failing only
 * when every record failed.
 */
import type { SQSRecord } from 'aws-lambda';
import { handleDeliveryRecords } from '../../../functions/delivery-events/handle-delivery-records';
import type { DeliveryEventsDependencies } from '../../../functions/delivery-events/delivery-events.composition';
import type { DeliveryEventPorts } from '../../../shared/delivery/apply-webhook-batch';
import { callbackDataOf } from '../../../shared/delivery/callback-data';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { encodeMetaEventMessage } from '../../../shared/meta-app/meta-event-message';
import { FakeLedgerDeliveryStore, FakeOwnerDirectory, RecordingLog, statusOf, webhookBody } from '../../support/delivery-fakes';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const T0 = Math.floor(NOW.getTime() / 1000) - 600;

function setup() {
  const owners = new FakeOwnerDirectory();
  owners.phoneNumbers.set('pn_a', { organizationId: 'org_a', wabaId: 'waba-a' });
  const ledger = new FakeLedgerDeliveryStore();
  ledger.addJob('job_1', 'org_a', 'pn_a', 3);
  for (let index = 0; index < 3; index += 1)
    ledger.addEntry('job_1', 0, index, { status: 'SENT', updatedAt: NOW.toISOString(), messageId: `wamid.${index}`, tallyCode: tallyCodes.sent });
  const deferred: Array<{ receiptHandle: string; seconds: number }> = [];
  const ports: DeliveryEventPorts = { owners, ledger, log: new RecordingLog() };
  const dependencies = {
    ports,
    redelivery: { defer: async (receiptHandle: string, seconds: number) => void deferred.push({ receiptHandle, seconds }) },
  } as unknown as DeliveryEventsDependencies;
  return { ledger, deferred, dependencies };
}

const readOf = (index: number) =>
  JSON.stringify(
    webhookBody([
      {
        phoneNumberId: 'pn_a',
        statuses: [
          statusOf({
            id: `wamid.${index}`,
            status: 'read',
            timestamp: T0,
            callbackData: callbackDataOf({ kind: 'ledger', jobId: 'job_1', chunkIndex: 0, index }),
          }),
        ],
      },
    ]),
  );

const recordOf = (messageId: string, body: string, receiveCount = 1): SQSRecord =>
  ({
    messageId,
    receiptHandle: `rh-${messageId}`,
    body,
    attributes: { ApproximateReceiveCount: String(receiveCount) },
    messageAttributes: {},
  }) as unknown as SQSRecord;

describe('handleDeliveryRecords', () => {
  it('applies every readable record in one pass and returns only the unreadable one, deferred for a quick retry', async () => {
    const kit = setup();
    const result = await handleDeliveryRecords(kit.dependencies, [
      recordOf('m-0', encodeMetaEventMessage(NOW, readOf(0))),
      recordOf('m-bad', '{"version": 2}'),
      recordOf('m-1', encodeMetaEventMessage(NOW, readOf(1))),
    ]);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-bad' }], eventsApplied: 2 });
    expect(kit.ledger.applyBatches).toEqual([2]);
    expect(kit.deferred).toEqual([{ receiptHandle: 'rh-m-bad', seconds: 5 }]);
  });

  it('fails the invocation when every record failed, after deferring each', async () => {
    const kit = setup();
    kit.ledger.failOnApply = 1;
    await expect(
      handleDeliveryRecords(kit.dependencies, [
        recordOf('m-0', encodeMetaEventMessage(NOW, readOf(0)), 2),
        recordOf('m-1', encodeMetaEventMessage(NOW, readOf(1)), 2),
      ]),
    ).rejects.toThrow(/All records failed/);
    expect(kit.deferred.map(({ seconds }) => seconds)).toEqual([10, 10]);
  });
});
