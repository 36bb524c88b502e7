/**
 * The delivery-event processor: Meta's webhook batches applied to the records of the organization
 * owning each number, idempotently and in any order.
 */
import { applyWebhookBatch, type DeliveryEventPorts } from '../../../shared/delivery/apply-webhook-batch';
import { callbackDataOf } from '../../../shared/delivery/callback-data';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import {
  FakeLedgerDeliveryStore,
  FakeOwnerDirectory,
  RecordingInboundSink,
  RecordingLog,
  RecordingTemplateSink,
  RecordingUpstreamStore,
  statusOf,
  webhookBody,
} from '../../support/delivery-fakes';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const ORG = 'org_a';
const OTHER_ORG = 'org_b';
const PHONE_ID = 'pn_a';
const OTHER_PHONE_ID = 'pn_b';
const JOB = 'job_1';
const T0 = Math.floor(NOW.getTime() / 1000) - 600;
const b1 = (index: number, jobId = JOB) => callbackDataOf({ kind: 'ledger', jobId, chunkIndex: 0, index });

function setup(options: { withSinks?: boolean } = {}) {
  const owners = new FakeOwnerDirectory();
  owners.phoneNumbers.set(PHONE_ID, { organizationId: ORG, wabaId: 'waba-a' });
  owners.phoneNumbers.set(OTHER_PHONE_ID, { organizationId: OTHER_ORG, wabaId: 'waba-b' });
  owners.wabas.set('waba-a', ORG);
  const ledger = new FakeLedgerDeliveryStore();
  ledger.addJob(JOB, ORG, PHONE_ID);
  for (let index = 0; index < 5; index += 1) {
    ledger.addEntry(JOB, 0, index, { status: 'SENT', updatedAt: NOW.toISOString(), messageId: `wamid.${index}`, tallyCode: tallyCodes.sent });
  }
  const upstream = new RecordingUpstreamStore();
  const inbound = new RecordingInboundSink();
  const templates = new RecordingTemplateSink();
  const log = new RecordingLog();
  const withSinks = options.withSinks ?? true;
  const ports: DeliveryEventPorts = { owners, ledger, log, ...(withSinks ? { upstream, inbound, templates } : {}) };
  const apply = (body: unknown) => applyWebhookBatch(ports, body, NOW);
  return { owners, ledger, upstream, inbound, templates, log, apply };
}

const statuses = (...specs: Parameters<typeof statusOf>[0][]) => webhookBody([{ phoneNumberId: PHONE_ID, statuses: specs.map(statusOf) }]);

describe('status events on broadcast ledger entries', () => {
  it('adds each stage with Meta’s timestamp and moves the tally to the highest stage', async () => {
    const kit = setup();
    const report = await kit.apply(
      statuses(
        { id: 'wamid.0', status: 'sent', timestamp: T0, callbackData: b1(0) },
        { id: 'wamid.0', status: 'delivered', timestamp: T0 + 5, callbackData: b1(0) },
      ),
    );
    expect(report).toMatchObject({ applied: 2, notFound: 0, dropped: 0 });
    expect(kit.ledger.entry(JOB, 0, 0)!.facts).toEqual({ sentAt: new Date(T0 * 1000).toISOString(), deliveredAt: new Date((T0 + 5) * 1000).toISOString() });
    expect(kit.ledger.statusOf(JOB, 0, 0, NOW)).toBe('DELIVERED');
    expect(kit.ledger.tallyOf(JOB, 0)).toBe(tallyCodes.delivered);
  });

  it('changes nothing more when the same batch arrives again (duplicates)', async () => {
    const kit = setup();
    const body = statuses(
      { id: 'wamid.1', status: 'delivered', timestamp: T0, callbackData: b1(1) },
      { id: 'wamid.1', status: 'delivered', timestamp: T0 + 9, callbackData: b1(1) },
    );
    await kit.apply(body);
    const factsAfterFirst = { ...kit.ledger.entry(JOB, 0, 1)!.facts };
    await kit.apply(body);
    expect(kit.ledger.entry(JOB, 0, 1)!.facts).toEqual(factsAfterFirst);
    expect(factsAfterFirst.deliveredAt).toBe(new Date(T0 * 1000).toISOString());
    expect(kit.ledger.countsOf(JOB, NOW)).toMatchObject({ sent: 5, delivered: 1, read: 0, failed: 0, accounted: 5 });
  });

  it('keeps READ when delivered arrives after read, and counts read without a prior delivered', async () => {
    const kit = setup();
    await kit.apply(statuses({ id: 'wamid.2', status: 'read', timestamp: T0 + 10, callbackData: b1(2) }));
    expect(kit.ledger.statusOf(JOB, 0, 2, NOW)).toBe('READ');
    await kit.apply(
      statuses(
        { id: 'wamid.2', status: 'delivered', timestamp: T0 + 5, callbackData: b1(2) },
        { id: 'wamid.2', status: 'sent', timestamp: T0, callbackData: b1(2) },
      ),
    );
    expect(kit.ledger.statusOf(JOB, 0, 2, NOW)).toBe('READ');
    expect(kit.ledger.tallyOf(JOB, 2)).toBe(tallyCodes.read);
    expect(kit.ledger.countsOf(JOB, NOW)).toMatchObject({ sent: 5, delivered: 1, read: 1 });
  });

  it('keeps DELIVERED when failed arrives after delivered, and keeps the failure’s code on the entry', async () => {
    const kit = setup();
    await kit.apply(statuses({ id: 'wamid.3', status: 'delivered', timestamp: T0, callbackData: b1(3) }));
    await kit.apply(
      statuses({ id: 'wamid.3', status: 'failed', timestamp: T0 + 1, callbackData: b1(3), error: { code: 131026, title: 'Message undeliverable' } }),
    );
    expect(kit.ledger.statusOf(JOB, 0, 3, NOW)).toBe('DELIVERED');
    expect(kit.ledger.tallyOf(JOB, 3)).toBe(tallyCodes.delivered);
    expect(kit.ledger.entry(JOB, 0, 3)!.facts).toMatchObject({ metaErrorCode: 131026, metaErrorTitle: 'Message undeliverable' });
    expect(kit.ledger.countsOf(JOB, NOW).failed).toBe(0);
  });

  it('counts an async failure (131049) once, under Meta’s code, however often it arrives', async () => {
    const kit = setup();
    const failed = { id: 'wamid.4', status: 'failed', timestamp: T0, callbackData: b1(4), error: { code: 131049, title: 'Per-user marketing limit' } };
    await kit.apply(statuses(failed, failed));
    await kit.apply(statuses(failed));
    expect(kit.ledger.statusOf(JOB, 0, 4, NOW)).toBe('FAILED');
    expect(kit.ledger.countsOf(JOB, NOW)).toMatchObject({ sent: 4, failed: 1, failuresByReason: { '131049': 1 } });
  });

  it('resolves an UNKNOWN send outcome by its callback data, recording the message id it never had', async () => {
    const kit = setup();
    kit.ledger.addEntry(JOB, 1, 1000, { status: 'UNKNOWN', updatedAt: NOW.toISOString(), tallyCode: tallyCodes.unknown(NOW) });
    expect(kit.ledger.statusOf(JOB, 1, 1000, NOW)).toBe('UNKNOWN');
    const data = callbackDataOf({ kind: 'ledger', jobId: JOB, chunkIndex: 1, index: 1000 });
    const report = await kit.apply(statuses({ id: 'wamid.late', status: 'delivered', timestamp: T0, callbackData: data }));
    expect(report.applied).toBe(1);
    expect(kit.ledger.statusOf(JOB, 1, 1000, NOW)).toBe('DELIVERED');
    expect(kit.ledger.entry(JOB, 1, 1000)!.messageId).toBe('wamid.late');
    expect(kit.ledger.tallyOf(JOB, 1000)).toBe(tallyCodes.delivered);
    expect(kit.upstream.events).toEqual([]);
  });

  it('matches an event without callback data by its message id', async () => {
    const kit = setup();
    const report = await kit.apply(statuses({ id: 'wamid.1', status: 'read', timestamp: T0 }));
    expect(report.applied).toBe(1);
    expect(kit.ledger.statusOf(JOB, 0, 1, NOW)).toBe('READ');
  });

  it('reads each owner and job once per batch', async () => {
    const kit = setup();
    await kit.apply(statuses(...[0, 1, 2, 3, 4].map((index) => ({ id: `wamid.${index}`, status: 'delivered', callbackData: b1(index) }))));
    expect(kit.owners.lookups).toBe(1);
    expect(kit.ledger.jobOwnerReads).toBe(1);
  });
});

describe('tenant isolation', () => {
  it('drops an event that names our job from another organization’s number: nothing changes, ids logged', async () => {
    const kit = setup();
    const report = await kit.apply(
      webhookBody([
        {
          phoneNumberId: OTHER_PHONE_ID,
          statuses: [statusOf({ id: 'wamid.0', status: 'failed', callbackData: b1(0), error: { code: 131049, title: 'x' }, recipient: '15559998888' })],
        },
      ]),
    );
    expect(report).toMatchObject({ applied: 0, dropped: 1 });
    expect(kit.ledger.entry(JOB, 0, 0)!.facts).toEqual({});
    expect(kit.ledger.tallyOf(JOB, 0)).toBe(tallyCodes.sent);
    expect(kit.log.text()).toContain('dropped: job of another organization or number');
    expect(kit.log.text()).not.toContain('15559998888');
  });

  it('drops an event from another number of the same organization than the job’s', async () => {
    const kit = setup();
    kit.owners.phoneNumbers.set('pn_a2', { organizationId: ORG, wabaId: 'waba-a' });
    const report = await kit.apply(webhookBody([{ phoneNumberId: 'pn_a2', statuses: [statusOf({ id: 'wamid.0', status: 'read' })] }]));
    expect(report).toMatchObject({ applied: 0, dropped: 1 });
    expect(kit.ledger.statusOf(JOB, 0, 0, NOW)).toBe('SENT');
  });

  it('drops every event of a number no organization owns', async () => {
    const kit = setup();
    const report = await kit.apply(
      webhookBody([
        {
          phoneNumberId: 'pn_nobody',
          statuses: [statusOf({ id: 'wamid.0', status: 'read', callbackData: b1(0) })],
          messages: [{ from: '15550002222', id: 'wamid.in', timestamp: '1767000000', type: 'text', text: { body: 'hi' } }],
        },
      ]),
    );
    expect(report).toMatchObject({ applied: 0, dropped: 1, inbound: 0 });
    expect(kit.inbound.messages).toEqual([]);
    expect(kit.ledger.statusOf(JOB, 0, 0, NOW)).toBe('SENT');
    expect(kit.log.text()).not.toContain('15550002222');
  });

  it('drops an event of a job that does not exist (expired or discarded)', async () => {
    const kit = setup();
    const report = await kit.apply(statuses({ id: 'wamid.x', status: 'read', callbackData: b1(0, 'job_gone') }));
    expect(report).toMatchObject({ applied: 0, dropped: 1 });
    expect(kit.log.text()).toContain('dropped: job not found');
  });
});

describe('routing to the other sides', () => {
  it('hands u1: events and unknown message ids to the /upstream store with the owner’s organization', async () => {
    const kit = setup();
    kit.upstream.knownMessageIds.add('wamid.upstream');
    const report = await kit.apply(
      statuses(
        { id: 'wamid.u', status: 'delivered', callbackData: callbackDataOf({ kind: 'upstream-send', sendId: 'snd_1' }) },
        { id: 'wamid.upstream', status: 'read' },
        { id: 'wamid.nowhere', status: 'read' },
      ),
    );
    expect(report).toMatchObject({ applied: 2, notFound: 1, dropped: 0 });
    expect(kit.upstream.events.map((applied) => [applied.organizationId, applied.event.messageId])).toEqual(
      expect.arrayContaining([
        [ORG, 'wamid.u'],
        [ORG, 'wamid.upstream'],
      ]),
    );
    expect(kit.log.text()).toContain('dropped: message found in no record');
  });

  it('records inbound messages with the sender’s profile name and the business number', async () => {
    const kit = setup();
    const report = await kit.apply(
      webhookBody([
        {
          phoneNumberId: PHONE_ID,
          displayPhoneNumber: '+1 555-000-0000',
          contacts: [{ wa_id: '15550002222', profile: { name: 'Ada' } }],
          messages: [
            { from: '15550002222', id: 'wamid.in1', timestamp: '1767000000', type: 'text', text: { body: 'hello' } },
            {
              from: '15550002222',
              id: 'wamid.in2',
              timestamp: '1767000001',
              type: 'interactive',
              interactive: { type: 'button_reply', button_reply: { id: 'b', title: 'Yes' } },
            },
          ],
        },
      ]),
    );
    expect(report.inbound).toBe(2);
    expect(kit.inbound.messages[0]).toEqual({
      organizationId: ORG,
      message: {
        messageId: 'wamid.in1',
        from: '15550002222',
        profileName: 'Ada',
        timestamp: new Date(1_767_000_000_000),
        type: 'text',
        text: 'hello',
        phoneNumberId: PHONE_ID,
        businessPhoneNumber: '15550000000',
      },
    });
    expect(kit.inbound.messages[1]!.message.text).toBe('Yes');
  });

  it('hands template status changes to the template sink of the WABA’s owner', async () => {
    const kit = setup();
    const report = await kit.apply({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'waba-a',
          time: 1_767_000_100,
          changes: [
            {
              field: 'message_template_status_update',
              value: {
                event: 'PAUSED',
                message_template_id: 1234,
                message_template_name: 'promo',
                message_template_language: 'en_US',
                reason: null,
                other_info: { title: 'FIRST_PAUSE' },
              },
            },
          ],
        },
        {
          id: 'waba-unowned',
          changes: [
            {
              field: 'message_template_status_update',
              value: { event: 'APPROVED', message_template_id: 1, message_template_name: 'x', message_template_language: 'en' },
            },
          ],
        },
      ],
    });
    expect(report.templates).toBe(1);
    expect(kit.templates.updates).toEqual([
      {
        organizationId: ORG,
        update: {
          wabaId: 'waba-a',
          templateId: '1234',
          name: 'promo',
          language: 'en_US',
          status: 'PAUSED',
          reason: 'FIRST_PAUSE',
          at: new Date(1_767_000_100_000),
        },
      },
    ]);
    expect(kit.log.text()).toContain('dropped: business account owned by no organization');
  });

  it('logs "dropped: no sink" for events whose sink is not composed', async () => {
    const kit = setup({ withSinks: false });
    const report = await kit.apply(
      webhookBody([
        {
          phoneNumberId: PHONE_ID,
          statuses: [statusOf({ id: 'wamid.unmatched', status: 'read' })],
          messages: [{ from: '1555', id: 'wamid.in', timestamp: '1767000000', type: 'text' }],
        },
      ]),
    );
    expect(report).toMatchObject({ dropped: 1, inbound: 0 });
    expect(kit.log.lines.filter((line) => line.message === 'dropped: no sink')).toHaveLength(2);
  });
});

describe('malformed input', () => {
  it('skips one malformed status and applies the rest of the batch; a status value Meta added later is ignored without a warning', async () => {
    const kit = setup();
    const report = await kit.apply(
      webhookBody([
        {
          phoneNumberId: PHONE_ID,
          statuses: [
            { id: 'wamid.0', status: 'delivered' },
            statusOf({ id: 'wamid.1', status: 'delivered', callbackData: b1(1) }),
            statusOf({ id: 'wamid.2', status: 'deleted' }),
          ],
        },
      ]),
    );
    // Changed on purpose (issue 35): an unknown status value (`deleted`) is not malformed: not skipped, not warned about.
    expect(report).toMatchObject({ applied: 1, skipped: 1 });
    expect(kit.ledger.statusOf(JOB, 0, 1, NOW)).toBe('DELIVERED');
    expect(kit.log.lines.filter((line) => line.message === 'webhook element skipped').map((line) => line.attributes!.at)).toEqual([
      'entry[0].changes[0].value.statuses[0]',
    ]);
    expect(kit.log.lines.filter((line) => line.level === 'warn')).toHaveLength(1);
  });

  it('ignores unknown fields and changes of other fields, and reads a body given as raw text', async () => {
    const kit = setup();
    const body: Record<string, unknown> = { ...statuses({ id: 'wamid.0', status: 'read', callbackData: b1(0) }), extra: true };
    (body.entry as Array<{ changes: unknown[] }>)[0]!.changes.push({ field: 'account_update', value: { event: 'VERIFIED' } });
    const report = await kit.apply(JSON.stringify(body));
    expect(report).toMatchObject({ applied: 1, skipped: 0 });
  });

  it('skips a body that is not a WABA webhook without touching anything', async () => {
    const kit = setup();
    await expect(kit.apply('{not json')).resolves.toMatchObject({ applied: 0, skipped: 1 });
    await expect(kit.apply({ object: 'page', entry: [] })).resolves.toMatchObject({ applied: 0, skipped: 1 });
  });
});

describe('store failures', () => {
  it('propagate, and the redelivered batch converges to the same result as a clean run', async () => {
    const events = [0, 1, 2, 3, 4].flatMap((index) => [
      { id: `wamid.${index}`, status: 'sent', timestamp: T0, callbackData: b1(index) },
      { id: `wamid.${index}`, status: index % 2 ? 'read' : 'delivered', timestamp: T0 + 2, callbackData: b1(index) },
    ]);
    const clean = setup();
    await clean.apply(statuses(...events));

    const crashed = setup();
    crashed.ledger.failOnApply = 4;
    await expect(crashed.apply(statuses(...events))).rejects.toThrow('store down');
    await crashed.apply(statuses(...events));
    expect(crashed.ledger.countsOf(JOB, NOW)).toEqual(clean.ledger.countsOf(JOB, NOW));
    expect([...crashed.ledger.entries.values()].map((entry) => entry.facts)).toEqual([...clean.ledger.entries.values()].map((entry) => entry.facts));
  });
});
