/**
 * The sandbox's max-price templates (sandbox/max-price.ts; fact sheet row 4): the demo's
 * `capped_offer` carries Meta's `optimization_spec`, is listed with it, and is sent through
 * `/marketing_messages` only: 131061 through `/messages` (and on Meta's Cloud API fallback of an
 * account that has not onboarded), 131062 to a BSUID, 131065 to a country set in
 * `maxPriceUnavailableCountries`.
 */
import { demoIds } from '../../../local/demo-tenant';
import { bsuidOf } from '../../../sandbox/user-identity';
import { useSandbox } from '../../support/use-sandbox';
import { expectGraphError } from './sandbox-test-helpers';

const client = useSandbox({ beforeEachTest: (sandbox) => sandbox.reset() });
const PHONE_ID = demoIds.phoneNumberIds[0]!;
const capped = { name: 'capped_offer', language: { code: 'en' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }] };
const body = (address: Record<string, string> = { to: '447700900123' }) => ({
  messaging_product: 'whatsapp',
  recipient_type: 'individual',
  type: 'template',
  template: capped,
  ...address,
});

describe('max-price templates in the sandbox', () => {
  it('lists optimization_spec on the template', async () => {
    const listed = await client.graph('GET', `/${demoIds.wabaId}/message_templates?fields=name,optimization_spec&limit=100`);
    expect(listed.body.data.find((template: { name: string }) => template.name === 'capped_offer')).toMatchObject({ optimization_spec: { bid_amount: 0.05 } });
  });

  it('answers 131061 through /messages and on the Cloud API fallback of an account that has not onboarded', async () => {
    expectGraphError(await client.graph('POST', `/${PHONE_ID}/messages`, { body: body() }), 400, 131061);
    client.sandbox.setMarketingMessagesOnboarding(demoIds.wabaId, 'ELIGIBLE');
    expectGraphError(await client.graph('POST', `/${PHONE_ID}/marketing_messages`, { body: body() }), 400, 131061);
    expect(client.sandbox.acceptedMessages()).toHaveLength(0);
  });

  it('sends through /marketing_messages when onboarded; 131062 to a BSUID; 131065 in a country without max price', async () => {
    client.sandbox.setMarketingMessagesOnboarding(demoIds.wabaId, 'ONBOARDED');
    expect((await client.graph('POST', `/${PHONE_ID}/marketing_messages`, { body: body() })).status).toBe(200);
    expect(client.sandbox.acceptedMessages().map((message) => message.via)).toEqual(['marketing_messages']);

    const bsuid = await client.graph('POST', `/${PHONE_ID}/marketing_messages`, { body: body({ recipient: bsuidOf(demoIds.businessId, '447700900124') }) });
    expectGraphError(bsuid, 400, 131062);
    expect(bsuid.body.error.error_data.details).toContain('optimization_spec');

    client.sandbox.configure({ maxPriceUnavailableCountries: ['GB'] });
    const refused = await client.graph('POST', `/${PHONE_ID}/marketing_messages`, { body: body() });
    expectGraphError(refused, 400, 131065);
    expect(refused.body.error.error_data.details).toContain('GB');
    expect((await client.graph('POST', `/${PHONE_ID}/marketing_messages`, { body: body({ to: '919800000001' }) })).status).toBe(200);
    expect(() => client.sandbox.configure({ maxPriceUnavailableCountries: ['gb'] })).toThrow(/ISO 3166 alpha-2/);
  });
});
