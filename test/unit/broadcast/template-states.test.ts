import { TemplateNotApprovedError } from '../../../shared/broadcast/errors';
import { selectTemplate } from '../../../shared/broadcast/template-checks';
import type { TemplateBroadcastRequest } from '../../../shared/broadcast/template-broadcast.schema';
import { overlayTemplateStates, TemplateCatalog } from '../../../shared/broadcast/template-catalog';
import { BroadcastTemplateStatusSink } from '../../../shared/module-bridges/broadcast-template-status-sink';
import { fixedClock } from '../../../shared/ports/clock';
import { InMemoryTemplateStates, ScriptedCloudApi, template } from '../../support/broadcast-fakes';

const START = '2026-03-01T09:00:00.000Z';
const secondsAfterStart = (seconds: number) => new Date(Date.parse(START) + seconds * 1000);

function setup() {
  const clock = fixedClock(START);
  const upstream = new ScriptedCloudApi(clock);
  upstream.templates.set('waba_1', [template(), template({ name: 'welcome' })]);
  const states = new InMemoryTemplateStates();
  const catalog = new TemplateCatalog(upstream, clock, 60_000, states);
  const sink = new BroadcastTemplateStatusSink(states);
  const event = (status: string, at: Date, overrides: Partial<{ name: string; language: string; reason: string }> = {}) =>
    sink.recordTemplateStatus('org_1', { wabaId: 'waba_1', templateId: 'tpl_1', name: 'order_update', language: 'en_US', status, at, ...overrides });
  const statusOf = async (name = 'order_update') => (await catalog.templatesOf('waba_1', 't')).find((each) => each.name === name)?.status;
  return { clock, upstream, states, catalog, event, statusOf };
}

describe('template states from Meta’s events', () => {
  test('a PAUSED event after the list was read wins over the cached list at once; APPROVED makes it sendable again', async () => {
    const { upstream, event, statusOf, clock, catalog } = setup();
    expect(await statusOf()).toBe('APPROVED');
    clock.advanceBy(5_000);
    await event('paused', secondsAfterStart(5), { reason: 'Low quality' });
    expect(await statusOf()).toBe('PAUSED');
    // The next broadcast is refused with the template's state by the existing rule.
    const request: TemplateBroadcastRequest = {
      broadcastName: 'b',
      fromPhoneNumber: '15550100001',
      templateName: 'order_update',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
      data: [],
    };
    await expect(catalog.templatesOf('waba_1', 't').then((list) => selectTemplate(list, request))).rejects.toThrow(
      new TemplateNotApprovedError('template order_update (en_US) is PAUSED; only APPROVED templates can be sent'),
    );
    // Other templates keep the listed status; nothing was read again from Meta.
    expect(await statusOf('welcome')).toBe('APPROVED');
    expect(upstream.listTemplateCalls).toBe(1);

    clock.advanceBy(5_000);
    await event('APPROVED', secondsAfterStart(10));
    expect(await statusOf()).toBe('APPROVED');
    await expect(catalog.templatesOf('waba_1', 't').then((list) => selectTemplate(list, request))).resolves.toMatchObject({ name: 'order_update' });
  });

  test('an older event never replaces a newer one (reordered or redelivered events)', async () => {
    const { event, statusOf, states } = setup();
    await event('PAUSED', secondsAfterStart(20));
    await event('APPROVED', secondsAfterStart(10));
    await event('PAUSED', secondsAfterStart(20));
    expect([...states.states.values()].map((state) => [state.status, state.at.toISOString()])).toEqual([['PAUSED', secondsAfterStart(20).toISOString()]]);
    expect(await statusOf()).toBe('PAUSED');
  });

  test('states older than the cached list are not overlaid: the list Meta gave after the event is the truth', async () => {
    const { event, statusOf, clock, upstream } = setup();
    await event('PAUSED', secondsAfterStart(-120));
    expect(await statusOf()).toBe('APPROVED');
    // A newer event wins over the cached list; once the list is read again after it, that list is the truth.
    upstream.templates.set('waba_1', [template({ status: 'PAUSED' })]);
    await event('DISABLED', secondsAfterStart(30));
    expect(await statusOf()).toBe('DISABLED');
    clock.advanceBy(60_000);
    expect(await statusOf()).toBe('PAUSED');
  });

  test('states are per business account, template name and language', async () => {
    const { event, statusOf, catalog, upstream } = setup();
    upstream.templates.set('waba_2', [template()]);
    await event('PAUSED', secondsAfterStart(1), { language: 'de' });
    expect(await statusOf()).toBe('APPROVED');
    expect((await catalog.templatesOf('waba_2', 't'))[0]!.status).toBe('APPROVED');
  });

  test('the overlay returns the same list when nothing applies, and a copy (never a mutated cache) when something does', () => {
    const list = [template()];
    const listedAt = Date.parse(START);
    expect(overlayTemplateStates(list, [], listedAt)).toBe(list);
    const same = { name: 'order_update', language: 'en_US', status: 'APPROVED', templateId: 'tpl_1', at: secondsAfterStart(5) };
    expect(overlayTemplateStates(list, [same], listedAt)).toBe(list);
    const paused = overlayTemplateStates(list, [{ ...same, status: 'PAUSED' }], listedAt);
    expect(paused[0]!.status).toBe('PAUSED');
    expect(list[0]!.status).toBe('APPROVED');
  });
});
