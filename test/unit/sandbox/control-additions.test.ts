/**
 * Control additions and cross-cutting behaviour: expired tokens, re-registration, routing of the
 * new object kinds, and the README's route table against the routing table.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { GRAPH_ROUTES } from '../../../sandbox/routes';
import { useSandbox } from '../../support/use-sandbox';
import {
  OTHER_TOKEN,
  OTHER_WABA_ID,
  PHONE_ID,
  TOKEN,
  WABA_ID,
  accountA,
  expectGraphError,
  textMessage,
  uploadForm,
  fixtureAccounts,
} from './sandbox-test-helpers';

const client = useSandbox({ accounts: fixtureAccounts() });

beforeEach(() => {
  client.sandbox.registerBusinessAccount(accountA());
  client.sandbox.reset();
});

function expectSessionExpired(result: { status: number; body: any; headers: Headers }): void {
  expectGraphError(result, 401, 190);
  expect(result.body.error).toMatchObject({ message: 'Error validating access token: Session has expired', type: 'OAuthException', error_subcode: 463 });
  expect(result.headers.get('www-authenticate')).toContain('invalid_token');
}

describe('expired tokens (needs authorization)', () => {
  it("answers 190/463 to every Graph call with the account's token until cleared", async () => {
    const marked = await client.sandboxApi('POST', `/accounts/${WABA_ID}/token-expired`, { expired: true });
    expect(marked).toMatchObject({ status: 200, body: { wabaId: WABA_ID, tokenExpired: true } });
    expectSessionExpired(await client.send(textMessage()));
    expectSessionExpired(await client.graph('GET', `/${WABA_ID}/message_templates`));
    expectSessionExpired(await client.graph('GET', '/message_template_library'));
    expectSessionExpired(await client.graph('POST', `/${PHONE_ID}/media`, { form: uploadForm({ messaging_product: 'whatsapp' }) }));
    // Unknown ids answer the same: the token is checked first.
    expectSessionExpired(await client.graph('GET', '/424242'));
    // Other accounts are unaffected.
    expect((await client.graph('GET', `/${OTHER_WABA_ID}/phone_numbers`, { token: OTHER_TOKEN })).status).toBe(200);

    expect((await client.sandboxApi('POST', `/accounts/${WABA_ID}/token-expired`, { expired: false })).body.tokenExpired).toBe(false);
    expect((await client.send(textMessage())).status).toBe(200);
  });

  it('defaults to expiring, clears with DELETE, reset or re-registration, and works in process', async () => {
    await client.sandboxApi('POST', `/accounts/${WABA_ID}/token-expired`);
    expectSessionExpired(await client.graph('GET', `/${WABA_ID}`));
    expect((await client.sandboxApi('DELETE', `/accounts/${WABA_ID}/token-expired`)).status).toBe(200);
    expect((await client.graph('GET', `/${WABA_ID}`)).status).toBe(200);

    client.sandbox.setTokenExpired(WABA_ID, true);
    expectSessionExpired(await client.graph('GET', `/${WABA_ID}`));
    client.sandbox.reset();
    expect((await client.graph('GET', `/${WABA_ID}`)).status).toBe(200);

    client.sandbox.setTokenExpired(WABA_ID, true);
    client.sandbox.registerBusinessAccount(accountA());
    expect((await client.graph('GET', `/${WABA_ID}`)).status).toBe(200);
  });

  it('refuses media downloads with an expired token', async () => {
    const uploaded = await client.graph('POST', `/${PHONE_ID}/media`, {
      form: uploadForm({ messaging_product: 'whatsapp' }, { name: 'a.txt', type: 'text/plain', data: 'x' }),
    });
    const { url } = (await client.graph('GET', `/${uploaded.body.id}`)).body;
    client.sandbox.setTokenExpired(WABA_ID, true);
    expectSessionExpired(await client.request('GET', url, { token: TOKEN }));
  });

  it('validates the control request', async () => {
    expect((await client.sandboxApi('POST', '/accounts/999/token-expired', { expired: true })).status).toBe(404);
    expect((await client.sandboxApi('POST', `/accounts/${WABA_ID}/token-expired`, { expired: 'yes' })).status).toBe(400);
    expect((await client.sandboxApi('GET', `/accounts/${WABA_ID}/token-expired`)).status).toBe(405);
    expect(() => client.sandbox.setTokenExpired('999', true)).toThrow('no account with wabaId 999');
  });
});

describe('re-registering an account', () => {
  it('starts it from what was registered, dropping what Graph created, and keeps serving it', async () => {
    const created = await client.graph('POST', `/${WABA_ID}/message_templates`, {
      body: { name: 'temporary', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hi' }] },
    });
    const media = await client.graph('POST', `/${PHONE_ID}/media`, {
      form: uploadForm({ messaging_product: 'whatsapp' }, { name: 'a.txt', type: 'text/plain', data: 'x' }),
    });
    await client.graph('POST', `/${PHONE_ID}/conversational_automation`, { body: { enable_welcome_message: true } });

    client.sandbox.registerBusinessAccount(accountA());
    expect((await client.graph('GET', `/${created.body.id}`)).body.error).toMatchObject({ error_subcode: 33 });
    expect((await client.graph('GET', `/${media.body.id}`)).body.error).toMatchObject({ error_subcode: 33 });
    expect((await client.graph('GET', `/${PHONE_ID}?fields=conversational_automation`)).body.conversational_automation.enable_welcome_message).toBe(false);
    expect((await client.graph('GET', `/${WABA_ID}/message_templates`)).body.data).toHaveLength(4);
    // The name is free again: the deletion reservation belonged to the replaced account.
    expect(
      (
        await client.graph('POST', `/${WABA_ID}/message_templates`, {
          body: { name: 'temporary', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hi' }] },
        })
      ).status,
    ).toBe(200);
  });

  it('refuses a fixture whose ids clash with ones the sandbox generated', async () => {
    const created = await client.graph('POST', `/${WABA_ID}/message_templates`, {
      body: { name: 'generated_id', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hi' }] },
    });
    const clash = await client.sandboxApi('POST', '/accounts', {
      ...accountA(),
      wabaId: '8000001',
      accessToken: 'x',
      phoneNumbers: [{ id: created.body.id, displayPhoneNumber: '15550000000', verifiedName: 'x' }],
      templates: [],
    });
    expect(clash.status).toBe(409);
  });
});

describe('routing of the new objects', () => {
  it('answers Meta errors for unknown edges, wrong methods and extra segments', async () => {
    const flow = await client.graph('POST', `/${WABA_ID}/flows`, { body: { name: 'routing', categories: ['OTHER'] } });
    expect((await client.graph('GET', `/${flow.body.id}/metrics`)).body.error.message).toBe(
      '(#100) Tried accessing nonexisting field (metrics) on node type (WhatsAppFlow)',
    );
    expect((await client.graph('GET', `/${flow.body.id}/publish`)).body.error).toMatchObject({ code: 100, error_subcode: 33 });
    expectGraphError(await client.graph('POST', `/${flow.body.id}/publish/now`), 400, 2500);
    expect((await client.graph('PUT', `/${WABA_ID}/message_templates`)).body.error).toMatchObject({ code: 100, error_subcode: 33 });
    expect((await client.graph('POST', '/message_template_library')).body.error).toMatchObject({ code: 100, error_subcode: 33 });
    expectGraphError(await client.graph('GET', '/message_template_library/extra'), 400, 100);
  });
});

describe('README', () => {
  const placeholders: Record<string, string> = {
    waba: '{waba-id}',
    phone: '{phone-number-id}',
    template: '{template-id}',
    media: '{media-id}',
    flow: '{flow-id}',
  };

  it('lists exactly the routes the routing table serves', () => {
    const readme = readFileSync(resolve(__dirname, '../../../sandbox/README.md'), 'utf8');
    const documented = [...readme.matchAll(/^\| `(GET|POST|DELETE) (\/[^`]*)` \|/gm)]
      .map((match) => `${match[1]} ${match[2]}`)
      .filter((route) => !route.includes('/_sandbox') && !route.includes('/whatsapp_business/'));
    const served = GRAPH_ROUTES.map((route) => {
      const object = route.node === 'root' ? '' : `/${placeholders[route.node]}`;
      const edge = route.node === 'root' ? `/${route.edge}` : route.edge === null ? '' : `/${route.edge}`;
      return `${route.method} ${object}${edge}${route.withSubId ? '/{qr-code-id}' : ''}`;
    });
    expect([...documented].sort()).toEqual([...new Set(served)].sort());
  });
});
