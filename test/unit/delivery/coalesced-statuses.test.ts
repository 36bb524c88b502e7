/**
 * A webhook batch's broadcast statuses are applied per job in one store call (one read and at most
 * one write per tally item in the adapter); customer callbacks follow only the events that added a
 * fact, and again on a redelivery; an index outside the job is nobody's.
 */
import { applyWebhookBatch, applyWebhookBatches, type DeliveryEventPorts } from '../../../shared/delivery/apply-webhook-batch';
import { callbackDataOf } from '../../../shared/delivery/callback-data';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { FakeLedgerDeliveryStore, FakeOwnerDirectory, RecordingLog, statusOf, webhookBody, type StatusSpec } from '../../support/delivery-fakes';
import { RecordingPublisher } from '../../support/webhook-fakes';
import { FakeWebhookRegistry } from '../../support/fake-webhook-registry';
import { QueueingCustomerEventPublisher } from '../../../shared/customer-events/customer-event-publisher';
import { fixedClock } from '../../../shared/ports/clock';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const ORG = 'org_a';
const PHONE_ID = 'pn_a';
const T0 = Math.floor(NOW.getTime() / 1000) - 600;
const b1 = (jobId: string, index: number) => callbackDataOf({ kind: 'ledger', jobId, chunkIndex: 0, index });

function setup() {
  const owners = new FakeOwnerDirectory();
  owners.phoneNumbers.set(PHONE_ID, { organizationId: ORG, wabaId: 'waba-a' });
  const ledger = new FakeLedgerDeliveryStore();
  for (const jobId of ['job_1', 'job_2']) {
    ledger.addJob(jobId, ORG, PHONE_ID, 3);
    for (let index = 0; index < 3; index += 1)
      ledger.addEntry(jobId, 0, index, { status: 'SENT', updatedAt: NOW.toISOString(), messageId: `wamid.${jobId}.${index}`, tallyCode: tallyCodes.sent });
  }
  const events = new RecordingPublisher();
  const log = new RecordingLog();
  const ports: DeliveryEventPorts = { owners, ledger, log, events };
  const apply = (specs: StatusSpec[], redelivered = false) =>
    applyWebhookBatch(ports, webhookBody([{ phoneNumberId: PHONE_ID, statuses: specs.map(statusOf) }]), NOW, { redelivered });
  return { owners, ledger, events, log, apply, ports };
}

const spec = (jobId: string, index: number, status: string, timestamp = T0): StatusSpec => ({
  id: `wamid.${jobId}.${index}`,
  status,
  timestamp,
  callbackData: b1(jobId, index),
});

describe('coalesced broadcast statuses', () => {
  it('hands each job’s events of a batch to the store in one call', async () => {
    const kit = setup();
    const report = await kit.apply([
      spec('job_1', 0, 'sent'),
      spec('job_2', 0, 'sent'),
      spec('job_1', 1, 'sent'),
      spec('job_1', 2, 'delivered'),
      spec('job_2', 1, 'read'),
    ]);
    expect(report).toMatchObject({ applied: 5, notFound: 0, dropped: 0 });
    expect([...kit.ledger.applyBatches].sort()).toEqual([2, 3]);
    expect(kit.ledger.tallyOf('job_1', 2)).toBe(tallyCodes.delivered);
  });

  it('publishes message.status once per new fact: a duplicate batch counts as applied but publishes nothing', async () => {
    const kit = setup();
    const batch = [spec('job_1', 0, 'sent'), spec('job_1', 0, 'delivered', T0 + 5), spec('job_1', 0, 'delivered', T0 + 9)];
    await expect(kit.apply(batch)).resolves.toMatchObject({ applied: 3 });
    // The second `delivered` is later than the first: nothing new, no callback.
    expect(kit.events.published.map(({ event }) => (event.data as { status: string }).status)).toEqual(['SENT', 'DELIVERED']);
    await expect(kit.apply(batch)).resolves.toMatchObject({ applied: 3 });
    expect(kit.events.published).toHaveLength(2);
  });

  it('publishes again on a redelivery (its first attempt may have written the facts and failed before publishing), with the same event ids', async () => {
    const kit = setup();
    const batch = [spec('job_1', 1, 'sent'), spec('job_1', 1, 'read', T0 + 3)];
    await kit.apply(batch);
    const first = kit.events.published.map(({ event }) => event.id);
    await kit.apply(batch, true);
    expect(kit.events.published.slice(2).map(({ event }) => event.id)).toEqual(first);
  });

  it('an index outside the job’s recipients is not found and never reaches the store', async () => {
    const kit = setup();
    const report = await kit.apply([spec('job_1', 3, 'delivered'), spec('job_1', 99_999, 'read')]);
    expect(report).toMatchObject({ applied: 0, notFound: 2 });
    expect(kit.ledger.applyBatches).toEqual([]);
    expect(kit.events.published).toEqual([]);
    expect(kit.log.text()).toContain('dropped: ledger entry not found');
  });

  it('a store failure fails the batch; its redelivery applies what was missing and counts nobody twice', async () => {
    const clean = setup();
    const batch = [0, 1, 2].flatMap((index) => [spec('job_1', index, 'sent'), spec('job_1', index, 'read', T0 + 2)]);
    await clean.apply(batch);
    const crashed = setup();
    crashed.ledger.failOnApply = 4;
    await expect(crashed.apply(batch)).rejects.toThrow('store down');
    await crashed.apply(batch, true);
    expect(crashed.ledger.countsOf('job_1', NOW)).toEqual(clean.ledger.countsOf('job_1', NOW));
    // Every fact's callback was published (the publisher keeps one per event id).
    expect(new Set(crashed.events.published.map(({ event }) => event.id))).toEqual(new Set(clean.events.published.map(({ event }) => event.id)));
  });
});

describe('the webhook batches of one queue delivery, applied together', () => {
  const body = (specs: StatusSpec[], messages?: unknown[]) =>
    webhookBody([{ phoneNumberId: PHONE_ID, statuses: specs.map(statusOf), ...(messages ? { messages } : {}) }]);
  const inboundText = { from: '15550002222', id: 'wamid.in', timestamp: String(T0), type: 'text', text: { body: 'hi' } };

  it('hand the store one call per job for all of them (one status per POST: ten POSTs, one tally write), each with its own report', async () => {
    const kit = setup();
    const outcomes = await applyWebhookBatches(kit.ports, [
      { body: body([spec('job_1', 0, 'sent')]), receivedAt: NOW },
      { body: body([spec('job_1', 1, 'sent')]), receivedAt: NOW },
      { body: body([spec('job_1', 0, 'sent'), spec('job_2', 2, 'read')]), receivedAt: NOW },
    ]);
    expect(kit.ledger.applyBatches.sort()).toEqual([1, 3]);
    expect(outcomes.map(({ report, failure }) => [report.applied, failure])).toEqual([
      [1, undefined],
      [1, undefined],
      [2, undefined],
    ]);
    // The repeated `sent` of recipient 0 added nothing: one callback per new fact.
    expect(kit.events.published).toHaveLength(3);
  });

  it('a batch whose own task fails is failed alone, and its statuses wait for its redelivery', async () => {
    const kit = setup();
    const inbound = { recordInbound: async () => Promise.reject(new Error('inbox down')) };
    const outcomes = await applyWebhookBatches({ ...kit.ports, inbound }, [
      { body: body([spec('job_1', 0, 'read')], [inboundText]), receivedAt: NOW },
      { body: body([spec('job_1', 1, 'read')]), receivedAt: NOW },
    ]);
    expect(outcomes.map(({ failure }) => (failure?.error as Error | undefined)?.message)).toEqual(['inbox down', undefined]);
    expect(kit.ledger.tallyOf('job_1', 0)).toBe(tallyCodes.sent);
    expect(kit.ledger.tallyOf('job_1', 1)).toBe(tallyCodes.read);
  });

  it('a failed tally write fails every batch with an event on that job and no other; applied again they count nobody twice', async () => {
    const kit = setup();
    kit.ledger.failOnApply = 1;
    const batches = [
      { body: body([spec('job_1', 0, 'read')]), receivedAt: NOW },
      { body: body([spec('job_2', 0, 'read')]), receivedAt: NOW },
      { body: body([spec('job_1', 1, 'delivered')]), receivedAt: NOW },
    ];
    const outcomes = await applyWebhookBatches(kit.ports, batches);
    const failed = outcomes.map(({ failure }) => failure !== undefined);
    // Which job's call runs first is not fixed; exactly the batches of the failing job fail.
    expect(failed[0]).toBe(failed[2]);
    expect(failed[1]).toBe(!failed[0]);
    const again = await applyWebhookBatches(
      kit.ports,
      batches.filter((_, position) => failed[position]).map((batch) => ({ ...batch, redelivered: true })),
    );
    expect(again.every(({ failure }) => failure === undefined)).toBe(true);
    expect([kit.ledger.tallyOf('job_1', 0), kit.ledger.tallyOf('job_1', 1), kit.ledger.tallyOf('job_2', 0)]).toEqual([
      tallyCodes.read,
      tallyCodes.delivered,
      tallyCodes.read,
    ]);
    expect(kit.ledger.countsOf('job_1', NOW)).toMatchObject({ accounted: 3, sent: 3, delivered: 2, read: 1 });
  });

  it('a body that is not a webhook is reported skipped and does not hold back the others', async () => {
    const kit = setup();
    const outcomes = await applyWebhookBatches(kit.ports, [
      { body: 'not json {', receivedAt: NOW },
      { body: body([spec('job_1', 2, 'delivered')]), receivedAt: NOW },
    ]);
    expect(outcomes[0]).toEqual({ report: expect.objectContaining({ applied: 0, skipped: 1 }) });
    expect(outcomes[1]).toEqual({ report: expect.objectContaining({ applied: 1 }) });
    expect(kit.ledger.tallyOf('job_1', 2)).toBe(tallyCodes.delivered);
  });
});

describe("a batch's customer events", () => {
  it("read the organization's webhook subscribers once per batch, not once per event", async () => {
    const registry = new FakeWebhookRegistry();
    registry.add(ORG, 'whk_1', 'https://a.example.com/1', 's1', ['message.status']);
    let reads = 0;
    const counted = {
      subscribersOf: (organizationId: string, type: Parameters<FakeWebhookRegistry['subscribersOf']>[1]) => (
        (reads += 1), registry.subscribersOf(organizationId, type)
      ),
    };
    const queued: unknown[] = [];
    const publisher = new QueueingCustomerEventPublisher({
      log: { record: async (_organizationId, event) => event, find: async () => undefined, between: async () => [] },
      queue: { enqueue: async (deliveries) => void queued.push(...deliveries), deadLetter: async () => undefined },
      registry: counted,
      clock: fixedClock(NOW.toISOString()),
    });
    const kit = setup();
    const ports: DeliveryEventPorts = { owners: kit.owners, ledger: kit.ledger, log: kit.log, events: publisher };
    const batch = [0, 1, 2].flatMap((index) => [spec('job_1', index, 'sent'), spec('job_1', index, 'read', T0 + 2)]);
    await applyWebhookBatch(ports, webhookBody([{ phoneNumberId: PHONE_ID, statuses: batch.map(statusOf) }]), NOW);
    expect(queued).toHaveLength(6);
    expect(reads).toBe(1);
    await applyWebhookBatch(ports, webhookBody([{ phoneNumberId: PHONE_ID, statuses: [spec('job_2', 0, 'sent')].map(statusOf) }]), NOW);
    expect(reads).toBe(2);
  });
});
