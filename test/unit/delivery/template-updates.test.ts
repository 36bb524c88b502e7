/**
 * Meta's template quality and category updates (issue 25 item 4): read from the webhook, stored as
 * the template's attributes the catalog overlays on its cached list, and sent to customers as
 * `template.updated`.
 */
import { TemplateCatalog } from '../../../shared/broadcast/template-catalog';
import type { CustomerEvent } from '../../../shared/customer-events/ports';
import { applyWebhookBatch, type DeliveryEventPorts } from '../../../shared/delivery/apply-webhook-batch';
import { parseWebhookBody } from '../../../shared/delivery/webhook-payload.schema';
import { BroadcastTemplateStatusSink } from '../../../shared/module-bridges/broadcast-template-status-sink';
import { fixedClock } from '../../../shared/ports/clock';
import { InMemoryTemplateStates, ScriptedCloudApi, template } from '../../support/broadcast-fakes';
import { FakeLedgerDeliveryStore, FakeOwnerDirectory, RecordingLog, RecordingTemplateSink } from '../../support/delivery-fakes';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const ENTRY_TIME = Math.floor(NOW.getTime() / 1000) - 5;
const ids = { message_template_id: 1234, message_template_name: 'order_update', message_template_language: 'en_US' };
const body = (...changes: Array<{ field: string; value: unknown }>) => ({
  object: 'whatsapp_business_account',
  entry: [{ id: 'waba_1', time: ENTRY_TIME, changes }],
});
const quality = (previous: string | undefined, current: unknown) => ({
  field: 'message_template_quality_update',
  value: { ...ids, ...(previous ? { previous_quality_score: previous } : {}), new_quality_score: current },
});
const category = (previous: string, current: string) => ({
  field: 'template_category_update',
  value: { ...ids, previous_category: previous, new_category: current },
});
const impending = {
  field: 'template_category_update',
  value: { ...ids, correct_category: 'MARKETING', new_category: 'UTILITY', category_update_timestamp: ENTRY_TIME + 86_400 },
};
const at = new Date(ENTRY_TIME * 1000);
const identity = { wabaId: 'waba_1', templateId: '1234', name: 'order_update', language: 'en_US', at };

describe('parsing template quality and category updates', () => {
  it('reads a quality update and the completed category update; the impending notice changes nothing', () => {
    const parsed = parseWebhookBody(body(quality('green', 'YELLOW'), category('UTILITY', 'marketing'), impending), NOW);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.ignored).toBe(1);
    expect(parsed.changes).toEqual([
      { kind: 'template-attribute', wabaId: 'waba_1', update: { ...identity, change: 'quality', previous: 'GREEN', current: 'YELLOW' } },
      { kind: 'template-attribute', wabaId: 'waba_1', update: { ...identity, change: 'category', previous: 'UTILITY', current: 'MARKETING' } },
    ]);
  });

  it('skips a malformed value by position, naming the field, and keeps a quality without previous score', () => {
    const parsed = parseWebhookBody(body(quality(undefined, 7), quality(undefined, 'RED')), NOW);
    expect(parsed.skipped).toEqual([{ at: 'entry[0].changes[0].value', problem: expect.stringContaining('new_quality_score') }]);
    expect(parsed.changes).toEqual([{ kind: 'template-attribute', wabaId: 'waba_1', update: { ...identity, change: 'quality', current: 'RED' } }]);
  });
});

describe('applying them', () => {
  function setup() {
    const owners = new FakeOwnerDirectory();
    owners.wabas.set('waba_1', 'org_1');
    const templates = new RecordingTemplateSink();
    const published: Array<{ organizationId: string; event: CustomerEvent }> = [];
    const ports: DeliveryEventPorts = {
      owners,
      ledger: new FakeLedgerDeliveryStore(),
      templates,
      events: { publish: async (organizationId, event) => void published.push({ organizationId, event }) },
      log: new RecordingLog(),
    };
    return { templates, published, apply: (payload: unknown) => applyWebhookBatch(ports, payload, NOW) };
  }

  it('hands each change to the template sink and publishes template.updated with the changed one', async () => {
    const kit = setup();
    const report = await kit.apply(body(category('UTILITY', 'MARKETING'), quality('GREEN', 'RED')));
    expect(report.templates).toBe(2);
    expect(kit.templates.attributes.map((each) => each.update.change)).toEqual(['category', 'quality']);
    expect(kit.published.map(({ organizationId, event }) => ({ organizationId, type: event.type, data: event.data }))).toEqual([
      {
        organizationId: 'org_1',
        type: 'template.updated',
        data: {
          wabaId: 'waba_1',
          templateId: '1234',
          templateName: 'order_update',
          language: 'en_US',
          change: 'category',
          quality: null,
          category: { previous: 'UTILITY', current: 'MARKETING' },
          metaTimestamp: at.toISOString(),
        },
      },
      expect.objectContaining({
        type: 'template.updated',
        data: expect.objectContaining({ change: 'quality', quality: { previous: 'GREEN', current: 'RED' }, category: null }),
      }),
    ]);
  });

  it('gives a redelivered change the same event id', async () => {
    const kit = setup();
    await kit.apply(body(category('UTILITY', 'MARKETING')));
    await kit.apply(body(category('UTILITY', 'MARKETING')));
    expect(new Set(kit.published.map(({ event }) => event.id)).size).toBe(1);
  });
});

describe('the template list and the next accept see them before the cached list expires', () => {
  function setup() {
    const clock = fixedClock(NOW.toISOString());
    const upstream = new ScriptedCloudApi(clock);
    upstream.templates.set('waba_1', [template({ quality_score: { score: 'GREEN' } }), template({ name: 'welcome' })]);
    const states = new InMemoryTemplateStates();
    const catalog = new TemplateCatalog(upstream, clock, 60_000, states);
    const sink = new BroadcastTemplateStatusSink(states);
    const change = (kind: 'quality' | 'category', current: string, seconds: number) =>
      sink.recordTemplateAttribute('org_1', { ...identity, change: kind, current, at: new Date(NOW.getTime() + seconds * 1000) });
    const listed = async (name = 'order_update') => (await catalog.templatesOf('waba_1', 't')).find((each) => each.name === name)!;
    return { clock, upstream, states, sink, change, listed };
  }

  it('overlays the newer quality and category on the cached list, per template', async () => {
    const kit = setup();
    expect((await kit.listed()).category).toBe('UTILITY');
    await kit.change('category', 'MARKETING', 2);
    await kit.change('quality', 'yellow', 3);
    expect(await kit.listed()).toMatchObject({ category: 'MARKETING', quality_score: { score: 'YELLOW' }, status: 'APPROVED' });
    expect(await kit.listed('welcome')).toMatchObject({ category: 'UTILITY' });
    expect(kit.upstream.listTemplateCalls).toBe(1);
  });

  it('keeps the newest event of each kind; a status event erases neither', async () => {
    const kit = setup();
    await kit.change('category', 'MARKETING', 20);
    await kit.change('category', 'UTILITY', 10);
    await kit.sink.recordTemplateStatus('org_1', { ...identity, status: 'PAUSED', at: new Date(NOW.getTime() + 30_000) });
    expect(await kit.listed()).toMatchObject({ category: 'MARKETING', status: 'PAUSED' });
  });

  it('an event older than the cached list is not overlaid: the list read after it is the truth', async () => {
    const kit = setup();
    await kit.change('category', 'MARKETING', -120);
    expect((await kit.listed()).category).toBe('UTILITY');
  });
});
