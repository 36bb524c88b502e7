/**
 * The builder's pure parts (console/model): the CSV records with their lines, an audience file as
 * member rows and pages, the API's `invalid` mapped back to lines, a template's needs and the values
 * built from them (accepted by the server's own create check for every demo template the builder
 * fills), the preview agreeing with what the server sends, the dry run's words, the search, the routes.
 */
import { csvRecords } from '../../../console/model/csv';
import { linesOfInvalid, membersOfCsv, pagesOf, problemText } from '../../../console/model/csv-members';
import { parseCsv } from '../../../console/model/per-minute';
import { campaignValuesOf, missingNeed, needsOf, needsText, unsupportedInBuilder, type Mapping } from '../../../console/model/template-needs';
import { attributeNamesOf, fillText, previewFor } from '../../../console/model/whatsapp-preview';
import { campaignBody, confirmationText, dryRunRows, limitPlanLines, memberMatches, scheduleOf } from '../../../console/model/campaign-draft';
import { routeOf, audienceHref } from '../../../console/model/route';
import type { CampaignDryRunAnswer, TemplateView } from '../../../console/model/api-types';
import { demoRetailAccount } from '../../../local/demo-tenant';
import { requirementsOf } from '../../../shared/templates/template-requirements';
import { checkValuesFitTemplate } from '../../../shared/campaigns/create-campaign';
import { renderMemberSend } from '../../../shared/campaigns/campaign-values';
import { templateMessageBody } from '../../../shared/sending/message-bodies';

/** The demo account's templates as GET /templates shows them (components' type and text, parameters). */
const demoTemplates: TemplateView[] = demoRetailAccount().templates.map((template) => ({
  name: template.name,
  status: template.status,
  category: template.category,
  language: template.language,
  components: template.components.map((component) => ({
    type: String(component.type),
    ...(typeof component.text === 'string' ? { text: component.text } : {}),
  })),
  parameters: requirementsOf({ components: template.components as never, parameter_format: template.parameterFormat, category: template.category }),
}));
const demo = (name: string) => demoTemplates.find((template) => template.name === name)!;

describe('CSV records', () => {
  it('gives each record the line it starts on, across quoted line breaks and a byte-order mark', () => {
    expect(csvRecords('\uFEFFa,b\r\n"x\ny",2\r\nz,"q""r"\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x\ny', '2'] },
      { line: 4, fields: ['z', 'q"r'] },
    ]);
    expect(parseCsv('a,b\r\n"x,1",2\r\n')).toEqual([
      ['a', 'b'],
      ['x,1', '2'],
    ]);
  });
});

describe('an audience file', () => {
  it('reads identity columns, tags by |, other columns as attributes, empty cells as absent', () => {
    const parsed = membersOfCsv('countryCode,toPhoneNumber,userId,tags,first_name\n91,9800000001,,VIP| new ,Ada\n\n,,IN.1,,\n91,9800000003,,,,extra\n');
    expect(parsed).toEqual({
      ok: true,
      attributes: ['first_name'],
      members: [
        { line: 2, member: { countryCode: '91', toPhoneNumber: '9800000001', tags: ['VIP', 'new'], attributes: { first_name: 'Ada' } } },
        { line: 4, member: { userId: 'IN.1' } },
      ],
      problems: [{ line: 5, field: 'column 6', rule: "is beyond the header's 5 columns" }],
    });
  });

  it('refuses a header without an identity column, with a name twice or an attribute name the API refuses', () => {
    expect(membersOfCsv('name,city\nAda,Pune\n')).toEqual({
      ok: false,
      problem: { line: 1, field: 'header', rule: 'must name toPhoneNumber (with countryCode) or userId' },
    });
    expect(membersOfCsv('userId,city,city\n')).toMatchObject({ ok: false, problem: { rule: 'names city twice' } });
    expect(membersOfCsv('userId,first name\n')).toMatchObject({ ok: false, problem: { field: 'header "first name"' } });
    expect(membersOfCsv('')).toMatchObject({ ok: false, problem: { field: 'file', rule: 'is empty' } });
  });

  it("is sent in pages, and the API's invalid indexes name the lines of that page", () => {
    const members = Array.from({ length: 2_012 }, (_, index) => ({ line: index + 2, member: { userId: `u${index}` } }));
    const pages = pagesOf(members);
    expect(pages.map((page) => page.length)).toEqual([1000, 1000, 12]);
    const problems = linesOfInvalid(pages[1]!, [{ index: 3, field: 'toPhoneNumber', rule: 'must have at least 4 digits' }]);
    expect(problems).toEqual([{ line: 1005, field: 'toPhoneNumber', rule: 'must have at least 4 digits' }]);
    expect(problemText(problems[0]!)).toBe('Line 1005: toPhoneNumber must have at least 4 digits');
  });
});

describe("a template's needs and the values built from them", () => {
  const attribute = (name: string, fallback = ''): Mapping => ({ source: 'attribute', attribute: name, fallback });
  const literal = (value: string): Mapping => ({ source: 'literal', value });

  it('lists order_shipped as header link, two body values and the URL button', () => {
    const needs = needsOf(demo('order_shipped').parameters);
    expect(needs.map((need) => [need.key, need.label])).toEqual([
      ['header', 'Header image link (https://)'],
      ['body-1', 'Body {{1}}'],
      ['body-2', 'Body {{2}}'],
      ['button-0', 'Button 1: URL suffix'],
    ]);
    const values = campaignValuesOf(needs, {
      header: literal('https://cdn.example/p.jpg'),
      'body-1': attribute('first_name', 'there'),
      'body-2': attribute('order_id'),
      'button-0': attribute('order_id'),
    });
    expect(values).toEqual({
      templateParams: [{ attribute: 'first_name', fallback: 'there' }, { attribute: 'order_id' }],
      header: { type: 'image', link: 'https://cdn.example/p.jpg' },
      buttons: [{ index: 0, type: 'url', text: { attribute: 'order_id' } }],
    });
    expect(needsText(demo('order_shipped').parameters)).toBe('Header image link, Body {{1}}, Body {{2}}, Button 1: URL suffix');
    expect(missingNeed(needs, { header: literal('') })?.key).toBe('header');
  });

  it("builds values the server's create check accepts for every demo template the builder fills", () => {
    const fillable = demoTemplates.filter((template) => unsupportedInBuilder(template.parameters) === undefined);
    expect(fillable.map((template) => template.name)).toEqual(expect.arrayContaining(['order_update', 'order_shipped', 'summer_coupon', 'welcome_named']));
    for (const template of fillable) {
      const needs = needsOf(template.parameters);
      const mappings = Object.fromEntries(
        needs.map((need) => [
          need.key,
          need.place.in === 'header' && need.place.type !== 'text' ? literal('https://cdn.example/x.jpg') : attribute('code', 'X1'),
        ]),
      );
      const values = campaignValuesOf(needs, mappings);
      expect(() => checkValuesFitTemplate(template.parameters, `template ${template.name}`, values, new Date())).not.toThrow();
    }
    expect(unsupportedInBuilder(demo('spring_carousel').parameters)).toMatch(/carousel/);
    expect(unsupportedInBuilder(demo('flash_deal').parameters)).toMatch(/limited-time offer/);
  });
});

describe('the preview', () => {
  const shipped = demo('order_shipped');
  const values = campaignValuesOf(needsOf(shipped.parameters), {
    header: { source: 'literal', value: 'https://cdn.example/p.jpg' },
    'body-1': { source: 'attribute', attribute: 'first_name', fallback: 'there' },
    'body-2': { source: 'attribute', attribute: 'order_id', fallback: '' },
    'button-0': { source: 'attribute', attribute: 'order_id', fallback: '' },
  });

  it('shows what the server sends: the body filled with the parameters of the message Meta gets, the button value, the header link', () => {
    const members: Array<{ attributes: Record<string, string | number | boolean> }> = [
      { attributes: { first_name: 'Ada', order_id: 'A-1' } },
      { attributes: { order_id: 7 } },
      { attributes: { first_name: '  ', order_id: 'B-2' } },
    ];
    for (const member of members) {
      const preview = previewFor(shipped, values, member);
      const send = renderMemberSend(values, member);
      if (!preview.sent || 'skipped' in send) throw new Error('expected a send');
      const message = templateMessageBody(
        { name: shipped.name, language: shipped.language },
        { to: '919800000001', parameters: send.parameters, content: send.content },
      ) as unknown as { template: { components: Array<{ type: string; parameters: Array<{ text?: string; image?: { link: string } }> }> } };
      const part = (type: string) => message.template.components.find((component) => component.type === type)!.parameters;
      expect(preview.body).toBe(
        fillText(
          'Hi {{1}}, your order {{2}} is on its way.',
          part('body').map((parameter) => parameter.text!),
        ),
      );
      expect(preview.buttons).toEqual([{ label: 'Link', value: part('button')[0]!.text }]);
      expect(preview.header).toEqual({ kind: 'image', link: part('header')[0]!.image!.link });
    }
    expect(previewFor(shipped, values, { attributes: { order_id: 7 } })).toMatchObject({ body: 'Hi there, your order 7 is on its way.' });
  });

  it('says why a member would be skipped, as the expander would', () => {
    expect(previewFor(shipped, values, { attributes: { first_name: 'Ada' } })).toEqual({
      sent: false,
      reason: 'skipped: no order_id and no fallback (MISSING_ATTRIBUTE)',
    });
    expect(previewFor(demo('order_update'), { templateParams: [{ attribute: 'name' }, 'x'.repeat(1025)] }, { attributes: { name: 'Ada' } })).toMatchObject({
      sent: false,
      reason: expect.stringMatching(/INVALID_PARAMETER/),
    });
  });

  it('fills a named template and shows the footer; offers the attribute names met', () => {
    const named = demo('welcome_named');
    expect(
      previewFor(named, { templateParams: { first_name: { attribute: 'first_name' }, store: 'Demo Retail' } }, { attributes: { first_name: 'Ada' } }),
    ).toEqual({ sent: true, body: 'Hi Ada, welcome to Demo Retail!', buttons: [] });
    expect(previewFor(demo('order_update'), { templateParams: ['Ada', 'A-1'] }, { attributes: {} })).toMatchObject({ footer: 'Demo Retail' });
    expect(attributeNamesOf([{ attributes: { b: 1, a: 2 } }, { attributes: { a: 3 } }])).toEqual(['a', 'b']);
  });
});

describe('the draft, its dry run and the launch question', () => {
  const answer: CampaignDryRunAnswer = {
    audience: { members: 2000, duplicates: 1, optedOut: 2, excluded: 0, filteredOut: 0, missingAttribute: 3, invalid: 0 },
    sendable: 1994,
    estimatedCost: { currency: 'USD', amount: '9.97', priced: 1994, unpriced: 0, byCategory: {} },
    messagingLimit: {
      tier: 'TIER_1K',
      headroom: 1000,
      plan: [
        { from: '2026-12-01T10:00:00.000Z', recipients: 1000 },
        { from: '2026-12-02T11:00:00.000Z', recipients: 994 },
      ],
    },
    sample: [],
    estimated: false,
    membersRead: 2000,
  };

  it('names the count and the cost', () => {
    expect(confirmationText(answer, 'order_shipped', undefined)).toBe('Send order_shipped to 1,994 members now? Cost: about 9.97 USD.');
    expect(confirmationText({ sendable: 5, estimatedCost: undefined }, 'x', undefined)).toBe('Send x to 5 members now? Cost: not estimated (no rate card).');
    expect(dryRunRows(answer)).toContainEqual(['Missing values (no attribute, no fallback)', '3']);
    expect(limitPlanLines(answer.messagingLimit)).toHaveLength(3);
    expect(limitPlanLines({ tier: 'TIER_UNLIMITED', headroom: null, plan: [] })).toEqual(['Tier TIER_UNLIMITED: no limit applies, all go now']);
  });

  it('builds the create body with the one audience and the schedule', () => {
    const body = campaignBody({
      name: 'S',
      fromPhoneNumber: '1555',
      audienceId: 'aud_1',
      template: { name: 't', language: 'en', category: 'UTILITY' },
      values: { templateParams: ['a'] },
      scheduledAt: scheduleOf('2026-12-24T09:00'),
    });
    expect(body).toMatchObject({
      templateName: 't',
      templateType: 'UTILITY',
      audience: { audienceIds: ['aud_1'] },
      templateParams: ['a'],
      scheduledAt: new Date('2026-12-24T09:00').toISOString(),
    });
    expect(scheduleOf('')).toBeUndefined();
  });

  it('searches the loaded members by number, user id, tag or attribute', () => {
    const member = { countryCode: '91', toPhoneNumber: '9800000001', attributes: { first_name: 'Ada' }, tags: ['vip'] };
    expect(['+91 98000', '9800000001', 'ada', 'VIP', ''].map((query) => memberMatches(member, query))).toEqual([true, true, true, true, true]);
    expect(memberMatches(member, 'bob')).toBe(false);
  });

  it('routes the builder pages, a malformed audience id to the list', () => {
    expect(routeOf('#/campaigns/new')).toEqual({ page: 'campaign-new' });
    expect(routeOf('#/audiences')).toEqual({ page: 'audiences' });
    expect(routeOf('#/templates')).toEqual({ page: 'templates' });
    expect(routeOf(audienceHref('aud_1'))).toEqual({ page: 'audience', audienceId: 'aud_1' });
    expect(routeOf('#/audiences/%')).toEqual({ page: 'audiences' });
    expect(routeOf('#/campaigns/cmp_1')).toEqual({ page: 'audience-campaign', campaignId: 'cmp_1' });
  });
});
