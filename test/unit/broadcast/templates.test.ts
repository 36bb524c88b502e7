import { listApprovedTemplates } from '../../../shared/broadcast/list-approved-templates';
import { TemplateCatalog } from '../../../shared/broadcast/template-catalog';
import { bodyPlaceholderCount } from '../../../shared/broadcast/template-placeholders';
import { fixedClock } from '../../../shared/ports/clock';
import { InMemorySenderDirectory, ORG, ScriptedCloudApi, SENDER, template } from '../../support/broadcast-fakes';

const withBody = (text: string | undefined, type = 'BODY') => ({
  components: [
    { type: 'HEADER', text: 'Hi {{9}}' },
    { type, ...(text === undefined ? {} : { text }) },
  ],
});

describe('bodyPlaceholderCount', () => {
  it('is the highest numbered placeholder of the BODY', () => {
    expect(bodyPlaceholderCount(withBody('Hello {{1}}, order {{2}} ships {{3}}'))).toBe(3);
    // Gaps: {{3}} needs three values even when {{2}} is absent.
    expect(bodyPlaceholderCount(withBody('{{1}} and {{3}}'))).toBe(3);
    expect(bodyPlaceholderCount(withBody('{{3}} before {{1}}'))).toBe(3);
    // Repeated placeholders count once.
    expect(bodyPlaceholderCount(withBody('{{1}} {{1}} {{2}} {{1}}'))).toBe(2);
    // Whitespace inside the braces.
    expect(bodyPlaceholderCount(withBody('Dear {{ 1 }}, see {{  2}}'))).toBe(2);
    expect(bodyPlaceholderCount(withBody('{{10}}'))).toBe(10);
  });

  it('is 0 without placeholders, without BODY text or without a BODY; header variables do not count', () => {
    expect(bodyPlaceholderCount(withBody('No variables here'))).toBe(0);
    expect(bodyPlaceholderCount(withBody('Named {{name}} and {{}} are not numbered'))).toBe(0);
    expect(bodyPlaceholderCount(withBody(undefined))).toBe(0);
    expect(bodyPlaceholderCount(withBody('{{1}}', 'FOOTER'))).toBe(0);
    expect(bodyPlaceholderCount({ components: [] })).toBe(0);
  });

  it('accepts the component type in any case', () => {
    expect(bodyPlaceholderCount(withBody('{{1}} {{2}}', 'body'))).toBe(2);
  });
});

describe('TemplateCatalog', () => {
  const setup = () => {
    const clock = fixedClock('2026-03-01T09:00:00.000Z');
    const upstream = new ScriptedCloudApi(clock);
    upstream.templates.set('waba_1', [template()]);
    upstream.templates.set('waba_2', [template({ name: 'other' })]);
    return { clock, upstream, catalog: new TemplateCatalog(upstream, clock, 60_000) };
  };

  it('serves a business account from memory until the TTL passes', async () => {
    const { clock, upstream, catalog } = setup();
    expect((await catalog.templatesOf('waba_1', 't')).map((t) => t.name)).toEqual(['order_update']);
    clock.advanceBy(59_999);
    await catalog.templatesOf('waba_1', 't');
    expect(upstream.listTemplateCalls).toBe(1);
    clock.advanceBy(1);
    await catalog.templatesOf('waba_1', 't');
    expect(upstream.listTemplateCalls).toBe(2);
  });

  it('keeps business accounts apart and shares one read between concurrent callers', async () => {
    const { upstream, catalog } = setup();
    const [a, b, c] = await Promise.all([catalog.templatesOf('waba_1', 't'), catalog.templatesOf('waba_1', 't'), catalog.templatesOf('waba_2', 't')]);
    expect(a).toBe(b);
    expect(c.map((t) => t.name)).toEqual(['other']);
    expect(upstream.listTemplateCalls).toBe(2);
  });

  it('does not keep a failed read', async () => {
    const { upstream, catalog } = setup();
    upstream.listTemplatesFailure = new Error('graph down');
    await expect(catalog.templatesOf('waba_1', 't')).rejects.toThrow('graph down');
    upstream.listTemplatesFailure = undefined;
    await expect(catalog.templatesOf('waba_1', 't')).resolves.toHaveLength(1);
    expect(upstream.listTemplateCalls).toBe(2);
  });
});

describe('listApprovedTemplates with every status', () => {
  const setup = () => {
    const clock = fixedClock('2026-03-01T09:00:00.000Z');
    const upstream = new ScriptedCloudApi(clock);
    upstream.templates.set(SENDER.wabaId, [
      template(),
      template({ name: 'rejected_one', status: 'REJECTED', rejected_reason: 'INVALID_FORMAT' }),
      template({ name: 'pending_one', status: 'PENDING', rejected_reason: 'NONE' }),
    ]);
    return { senders: new InMemorySenderDirectory(), templates: new TemplateCatalog(upstream, clock) };
  };
  const caller = { organizationId: ORG, credentialId: 'cred_org', scope: { kind: 'organization' as const } };

  it('lists only APPROVED templates by default, with no rejection field', async () => {
    const listed = await listApprovedTemplates(setup(), caller, SENDER.phoneNumber);
    expect(listed.map((entry) => [entry.name, entry.rejectedReason])).toEqual([['order_update', undefined]]);
  });

  it("with 'all' lists every status, and Meta's reason only for a rejected template that has one", async () => {
    const listed = await listApprovedTemplates(setup(), caller, SENDER.phoneNumber, 'all');
    expect(listed.map((entry) => [entry.name, entry.status, entry.rejectedReason])).toEqual([
      ['order_update', 'APPROVED', undefined],
      ['rejected_one', 'REJECTED', 'INVALID_FORMAT'],
      ['pending_one', 'PENDING', undefined],
    ]);
  });
});
