/**
 * The suppression list: v1 use cases, keywords on inbound messages (through the delivery processor's
 * sink), failure 131050, and the keyword configuration.
 */
import { parseAppConfig } from '../../../shared/config/app-config';
import { applyWebhookBatch, type DeliveryEventPorts } from '../../../shared/delivery/apply-webhook-batch';
import { callbackDataOf } from '../../../shared/delivery/callback-data';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { OptOutNotFoundError } from '../../../shared/inbox/errors';
import { applyOptOutKeyword, defaultOptOutKeywords, optOutKeywordsOf, defaultOptInKeywords, type OptOutPorts } from '../../../shared/inbox/opt-outs';
import { InboxInboundMessageSink } from '../../../shared/module-bridges/inbox-inbound-sink';
import { InboxOptOutRecorder } from '../../../shared/module-bridges/inbox-opt-outs';
import { FakeLedgerDeliveryStore, FakeOwnerDirectory, RecordingLog, statusOf, webhookBody } from '../../support/delivery-fakes';
import { createInboxTestKit, senderA } from './inbox-test-kit';

const customer = '447700900123';
const keywords = optOutKeywordsOf(defaultOptOutKeywords, defaultOptInKeywords);

function setup() {
  const kit = createInboxTestKit();
  const optOutPorts: OptOutPorts = { optOuts: kit.optOuts, clock: kit.clock };
  const listed = async (organizationId = 'org_a') =>
    (await kit.services.listOptOuts({ organizationId, page: 1, pageSize: 100 })).items.map((entry) => entry.phoneNumber);
  return { ...kit, optOutPorts, listed };
}

describe('opt-out use cases (v1)', () => {
  it('adds a number once: a repeat answers the existing entry with created false', async () => {
    const { services, clock } = setup();
    const first = await services.addOptOut({ organizationId: 'org_a', phoneNumber: customer });
    expect(first).toEqual({ created: true, optOut: { phoneNumber: customer, source: 'api', createdAt: '2026-03-02T09:00:00.000Z' } });
    clock.advanceBy(60_000);
    const again = await services.addOptOut({ organizationId: 'org_a', phoneNumber: customer });
    expect(again).toEqual({ created: false, optOut: first.optOut });
  });

  it('lists by number with the real total, per organization, paged', async () => {
    const { services, listed } = setup();
    for (const number of ['447700900003', '447700900001', '447700900002']) await services.addOptOut({ organizationId: 'org_a', phoneNumber: number });
    await services.addOptOut({ organizationId: 'org_b', phoneNumber: '15550009999' });
    expect(await listed()).toEqual(['447700900001', '447700900002', '447700900003']);
    const page2 = await services.listOptOuts({ organizationId: 'org_a', page: 2, pageSize: 2 });
    expect(page2).toMatchObject({ page: 2, pageSize: 2, total: 3, items: [{ phoneNumber: '447700900003' }] });
    expect(await listed('org_b')).toEqual(['15550009999']);
  });

  it('removes a number; removing one not on the list (or another organization’s) is OptOutNotFoundError', async () => {
    const { services, listed } = setup();
    await services.addOptOut({ organizationId: 'org_a', phoneNumber: customer });
    await expect(services.removeOptOut('org_b', customer)).rejects.toBeInstanceOf(OptOutNotFoundError);
    await services.removeOptOut('org_a', customer);
    expect(await listed()).toEqual([]);
    await expect(services.removeOptOut('org_a', customer)).rejects.toBeInstanceOf(OptOutNotFoundError);
  });
});

describe('keywords', () => {
  it.each(['STOP', ' stop ', 'Unsubscribe', 'arrêt', 'ARRET', 'baja', 'Stopp', 'descadastrar'])('%j opts the sender out', async (text) => {
    const { optOutPorts, listed } = setup();
    expect(
      await applyOptOutKeyword(optOutPorts, keywords, { organizationId: 'org_a', phoneNumber: customer, text, sentAt: new Date('2026-03-02T08:00:00.000Z') }),
    ).toBe('opted-out');
    expect(await listed()).toEqual([customer]);
  });

  it('a start keyword removes the number; other texts and messages without text change nothing', async () => {
    const { optOutPorts, listed, optOuts } = setup();
    let second = 0;
    const apply = (text: string | undefined) =>
      applyOptOutKeyword(optOutPorts, keywords, {
        organizationId: 'org_a',
        phoneNumber: customer,
        text,
        sentAt: new Date(Date.parse('2026-03-02T08:00:00.000Z') + (second += 1) * 1000),
      });
    await apply('STOP');
    expect(await apply('please stop')).toBe('none');
    expect(await apply(undefined)).toBe('none');
    expect(await listed()).toEqual([customer]);
    expect(await apply('start')).toBe('opted-in');
    expect(await listed()).toEqual([]);
    expect(await apply('START')).toBe('opted-in');
    expect(optOuts.onList('org_a')).toEqual([]);
  });

  it('the lists come from OPT_OUT_KEYWORDS / OPT_IN_KEYWORDS (comma-separated), the defaults when unset', () => {
    expect(parseAppConfig({}).optOutKeywords.optOut.has('STOP')).toBe(true);
    expect(parseAppConfig({}).optOutKeywords.optIn.has('UNSTOP')).toBe(true);
    const custom = parseAppConfig({ OPT_OUT_KEYWORDS: ' halt, Basta ,,', OPT_IN_KEYWORDS: 'resume' }).optOutKeywords;
    expect([...custom.optOut]).toEqual(['HALT', 'BASTA']);
    expect([...custom.optIn]).toEqual(['RESUME']);
  });
});

describe('keywords through the delivery processor’s inbound sink', () => {
  function sinkKit() {
    const kit = setup();
    const sink = new InboxInboundMessageSink(
      { ...kit.ports, sleep: async () => undefined },
      { senderPhoneNumberOf: async () => senderA },
      { ports: kit.optOutPorts, keywords },
    );
    const message = (text: string, at: string, messageId = `wamid.${at}`) => ({
      messageId,
      from: customer,
      timestamp: new Date(at),
      type: 'text',
      text,
      phoneNumberId: 'pn_a',
      businessPhoneNumber: senderA,
    });
    return { ...kit, sink, message };
  }

  it('STOP adds the sender and START removes it; a redelivered STOP (the newest message) is applied again harmlessly', async () => {
    const { sink, message, listed } = sinkKit();
    const stop = message('STOP', '2026-03-02T08:00:00.000Z');
    await sink.recordInbound('org_a', stop);
    await sink.recordInbound('org_a', stop);
    expect(await listed()).toEqual([customer]);
    await sink.recordInbound('org_a', message('start', '2026-03-02T08:05:00.000Z'));
    expect(await listed()).toEqual([]);
  });

  it('an older STOP arriving after a newer START changes nothing', async () => {
    const { sink, message, listed } = sinkKit();
    await sink.recordInbound('org_a', message('START', '2026-03-02T08:05:00.000Z'));
    await sink.recordInbound('org_a', message('STOP', '2026-03-02T08:00:00.000Z'));
    expect(await listed()).toEqual([]);
  });
});

describe('failure 131050 in a status event', () => {
  const NOW = new Date('2026-03-01T10:00:00.000Z');
  function deliveryKit() {
    const kit = setup();
    const owners = new FakeOwnerDirectory();
    owners.phoneNumbers.set('pn_a', { organizationId: 'org_a', wabaId: 'waba-a' });
    const ledger = new FakeLedgerDeliveryStore();
    ledger.addJob('job_1', 'org_a', 'pn_a');
    for (const index of [0, 1])
      ledger.addEntry('job_1', 0, index, { status: 'SENT', updatedAt: NOW.toISOString(), messageId: `wamid.${index}`, tallyCode: tallyCodes.sent });
    const ports: DeliveryEventPorts = { owners, ledger, log: new RecordingLog(), optOuts: new InboxOptOutRecorder(kit.optOutPorts) };
    const apply = (...specs: Parameters<typeof statusOf>[0][]) =>
      applyWebhookBatch(ports, webhookBody([{ phoneNumberId: 'pn_a', statuses: specs.map(statusOf) }]), NOW);
    return { ...kit, apply };
  }
  const b1 = (index: number) => callbackDataOf({ kind: 'ledger', jobId: 'job_1', chunkIndex: 0, index });

  it('adds the recipient with source webhook-131050; other failures do not', async () => {
    const { apply, services } = deliveryKit();
    await apply(
      {
        id: 'wamid.0',
        status: 'failed',
        recipient: '15550000001',
        callbackData: b1(0),
        error: {
          code: 131050,
          title: 'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business',
        },
      },
      { id: 'wamid.1', status: 'failed', recipient: '15550000002', callbackData: b1(1), error: { code: 131026, title: 'Message undeliverable' } },
    );
    const list = await services.listOptOuts({ organizationId: 'org_a', page: 1, pageSize: 10 });
    expect(list.items).toEqual([{ phoneNumber: '15550000001', source: 'webhook-131050', createdAt: '2026-03-02T09:00:00.000Z' }]);
  });

  it('does nothing for an event of another organization’s job', async () => {
    const { apply, services } = deliveryKit();
    await apply({
      id: 'wamid.9',
      status: 'failed',
      recipient: '15550000003',
      callbackData: callbackDataOf({ kind: 'ledger', jobId: 'job_x', chunkIndex: 0, index: 0 }),
      error: { code: 131050, title: 'x' },
    });
    expect((await services.listOptOuts({ organizationId: 'org_a', page: 1, pageSize: 10 })).total).toBe(0);
  });
});
