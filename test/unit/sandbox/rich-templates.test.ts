/**
 * The demo tenant's rich templates (local/demo-rich-templates.ts) over HTTP: the sandbox's own
 * creation checks accept each definition as Meta's GET shows it, and a complete send of each is
 * accepted while a send missing what the template needs gets Meta's error.
 */
import { demoIds, demoRetailAccount } from '../../../local/demo-tenant';
import { demoRichTemplates } from '../../../local/demo-rich-templates';
import { useSandbox } from '../../support/use-sandbox';
import { expectGraphError } from './sandbox-test-helpers';

const client = useSandbox({ beforeEachTest: (sandbox) => sandbox.reset() });
const RECIPIENT = '15557770001';

const text = (value: string, name?: string) => ({ type: 'text', text: value, ...(name === undefined ? {} : { parameter_name: name }) });
const image = { type: 'image', image: { link: 'https://cdn.example.com/p.jpg' } };

/** A complete send of each rich template, as a broadcast would build it. */
const completeSends: Record<string, unknown[]> = {
  order_shipped: [
    { type: 'header', parameters: [image] },
    { type: 'body', parameters: [text('Ada'), text('A-1042')] },
    { type: 'button', sub_type: 'url', index: '0', parameters: [text('A-1042')] },
  ],
  summer_coupon: [
    { type: 'header', parameters: [text('Ada')] },
    { type: 'button', sub_type: 'copy_code', index: 0, parameters: [{ type: 'coupon_code', coupon_code: 'SUMMER20' }] },
    { type: 'button', sub_type: 'quick_reply', index: 1, parameters: [{ type: 'payload', payload: 'STOP-PROMO' }] },
  ],
  welcome_named: [{ type: 'body', parameters: [text('Ada', 'first_name'), text('Demo Retail', 'store')] }],
  spring_carousel: [
    { type: 'body', parameters: [text('Ada')] },
    {
      type: 'carousel',
      cards: [0, 1].map((index) => ({
        card_index: index,
        components: [
          { type: 'header', parameters: [image] },
          { type: 'body', parameters: [text(`Pick ${index}`)] },
          { type: 'button', sub_type: 'url', index: 0, parameters: [text(`sku-${index}`)] },
        ],
      })),
    },
  ],
  flash_deal: [
    { type: 'limited_time_offer', parameters: [{ type: 'limited_time_offer', limited_time_offer: { expiration_time_ms: 1_767_225_599_000 } }] },
    { type: 'body', parameters: [text('Ada')] },
    { type: 'button', sub_type: 'copy_code', index: 0, parameters: [{ type: 'coupon_code', coupon_code: 'FLASH15' }] },
    { type: 'button', sub_type: 'url', index: 1, parameters: [text('flash15')] },
  ],
  // A tracked link: the suffix is the recipient's token (docs/OUTCOMES.md "Tracked links").
  new_arrivals: [
    { type: 'body', parameters: [text('Ada')] },
    { type: 'button', sub_type: 'url', index: '0', parameters: [text('AQAFcHViX3gAAAA')] },
  ],
};

function templateSend(name: string, components: unknown[]) {
  const template = demoRichTemplates().find((candidate) => candidate.name === name)!;
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: RECIPIENT,
    type: 'template',
    template: { name, language: { code: template.language }, components },
  };
}

describe("the demo tenant's rich templates", () => {
  it("are on Demo Retail's account, APPROVED, with their ids in demoIds", () => {
    const retail = demoRetailAccount();
    for (const template of demoRichTemplates()) {
      expect(retail.templates).toContainEqual(template);
      expect(template.status).toBe('APPROVED');
      expect(demoIds.templateIds[template.name as keyof typeof demoIds.templateIds]).toBe(template.id);
    }
    expect(demoRichTemplates().map((template) => template.name)).toEqual(Object.keys(completeSends));
  });

  it.each(demoRichTemplates().map((template) => [template.name, template] as const))(
    "%s passes the sandbox's creation checks and reads back as defined",
    async (name, template) => {
      const created = await client.graph('POST', `/${demoIds.wabaId}/message_templates`, {
        body: {
          name: `${name}_copy`,
          language: template.language,
          category: template.category,
          components: template.components,
          ...(template.parameterFormat ? { parameter_format: template.parameterFormat } : {}),
        },
      });
      expect(created.status).toBe(200);
      expect(created.body).toEqual({ id: expect.any(String), status: 'PENDING', category: template.category });
      const read = await client.graph('GET', `/${created.body.id}?fields=components,parameter_format`);
      expect(read.body).toEqual({ id: created.body.id, components: template.components, parameter_format: template.parameterFormat ?? 'POSITIONAL' });
    },
  );

  it.each(Object.entries(completeSends))('%s: a complete send is accepted on /messages', async (name, components) => {
    const result = await client.send(templateSend(name, components));
    expect(result.status).toBe(200);
    expect(result.body.messages[0]).toEqual({ id: expect.stringMatching(/^wamid\./), message_status: 'accepted' });
  });

  it.each([
    ['order_shipped', 0, 132012, 'header: Format mismatch, expected IMAGE, received UNKNOWN'],
    ['order_shipped', 2, 131008, 'buttons: Button at index 0 of type Url requires a parameter'],
    ['summer_coupon', 1, 131008, 'buttons: Button at index 0 of type CopyCode requires a parameter'],
    ['welcome_named', 0, 131008, 'body: Parameter name first_name is missing'],
    ['spring_carousel', 1, 132000, 'carousel: number of cards (0) does not match the expected number of cards (2)'],
    ['flash_deal', 0, 131008, 'limited_time_offer: Parameter expiration_time_ms is missing'],
  ] as const)('%s without component %i: %i', async (name, dropped, code, details) => {
    const components = completeSends[name]!.filter((_component, index) => index !== dropped);
    const result = await client.send(templateSend(name, components));
    expectGraphError(result, 400, code);
    expect(result.body.error.error_data).toEqual({ messaging_product: 'whatsapp', details });
    expect(client.sandbox.acceptedMessages()).toEqual([]);
  });

  it('a NAMED send missing the second name answers 131008 naming it', async () => {
    const result = await client.send(templateSend('welcome_named', [{ type: 'body', parameters: [text('Ada', 'first_name')] }]));
    expectGraphError(result, 400, 131008);
    expect(result.body.error).toMatchObject({
      message: '(#131008) Required parameter is missing',
      error_data: { details: 'body: Parameter name store is missing' },
    });
  });
});
