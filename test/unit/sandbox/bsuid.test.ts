/**
 * Business-scoped user ids in the sandbox (../shared/meta/usernames-and-bsuid.md): the id format,
 * sends by `recipient`, the answers Meta gives, and the user fields of status and inbound webhooks.
 */
import { belongsTo, bsuidOf, countryOfPhone, parentBsuidOf, parseBsuid } from '../../../sandbox/user-identity';
import { useSandbox } from '../../support/use-sandbox';
import { accountA, accountB, expectGraphError, PHONE_ID, RECIPIENT, templateMessage, textMessage } from './sandbox-test-helpers';
import { Receiver } from './webhook-receiver';

const BUSINESS_A = '9000001';
const BUSINESS_B = '9000002';
const BRAZIL = '5511987654321';

describe('BSUID format', () => {
  it('is the number’s ISO country, a dot and digits, the same for a number and portfolio every time', () => {
    const id = bsuidOf(BUSINESS_A, BRAZIL);
    expect(id).toMatch(/^BR\.\d{20}$/);
    expect(id.length).toBeLessThanOrEqual(128);
    expect(bsuidOf(BUSINESS_A, BRAZIL)).toBe(id);
    expect(bsuidOf(BUSINESS_B, BRAZIL)).not.toBe(id);
    expect(bsuidOf(BUSINESS_A, RECIPIENT)).toMatch(/^US\./);
    expect(countryOfPhone('447700900123')).toBe('GB');
  });

  it('tells a portfolio’s own ids from another’s, and parses parent ids', () => {
    expect(belongsTo(bsuidOf(BUSINESS_A, BRAZIL), BUSINESS_A)).toBe(true);
    expect(belongsTo(bsuidOf(BUSINESS_B, BRAZIL), BUSINESS_A)).toBe(false);
    expect(parentBsuidOf('P1', BRAZIL)).toMatch(/^BR\.ENT\.\d{20}$/);
    expect(parseBsuid('US.ENT.118157')).toEqual({ country: 'US', parent: true });
    expect(parseBsuid('US.1349')).toEqual({ country: 'US', parent: false });
    expect(parseBsuid('15551234567')).toBeUndefined();
    expect(parseBsuid(`US.${'1'.repeat(129)}`)).toBeUndefined();
  });
});

const APP_SECRET = 'bsuid-secret';
const receiver = new Receiver();
const authTemplate = {
  id: '3000099',
  name: 'login_code',
  language: 'en_US',
  category: 'AUTHENTICATION' as const,
  status: 'APPROVED' as const,
  components: [{ type: 'BODY', text: '{{1}} is your code.' }],
};
const client = useSandbox({ accounts: [{ ...accountA(), templates: [...accountA().templates, authTemplate] }, accountB()] });

beforeAll(() => receiver.start());
afterAll(() => receiver.stop());
beforeEach(async () => {
  // Posts of the previous test still in flight would land in this one's receiver.
  await client.sandboxApi('POST', '/webhooks/drain');
  client.sandbox.reset();
  receiver.clear();
  const fast = { sentDelayMs: 0, deliveredDelayMs: 10, readDelayMs: 20, readRate: 1, deliveredRate: 1, concurrency: 1, batch: false };
  expect((await client.sandboxApi('POST', '/webhooks', { url: receiver.url, appSecret: APP_SECRET, ...fast })).status).toBe(200);
});

async function drain(): Promise<void> {
  expect((await client.sandboxApi('POST', '/webhooks/drain')).status).toBe(200);
}

function values(): any[] {
  return receiver.received.flatMap((post) => post.body.entry.flatMap((entry: any) => entry.changes.map((change: any) => change.value)));
}

describe('sends by recipient', () => {
  it('answers a BSUID send with input and user_id and no wa_id; to wins over recipient', async () => {
    const id = bsuidOf(BUSINESS_A, BRAZIL);
    const byId = await client.send({ messaging_product: 'whatsapp', recipient_type: 'individual', recipient: id, type: 'text', text: { body: 'Olá' } });
    expect(byId.status).toBe(200);
    expect(byId.body.contacts).toEqual([{ input: id, user_id: id }]);
    const both = await client.send({ ...textMessage(RECIPIENT), recipient: id });
    expect(both.body.contacts).toEqual([{ input: RECIPIENT, wa_id: RECIPIENT }]);
    const logged = client.sandbox.acceptedMessages();
    expect(logged[0]).toMatchObject({ recipient: id, recipientUserId: id });
    expect(logged[1]!.recipient).toBe(RECIPIENT);
  });

  it('needs to or recipient, a well-formed BSUID, and one of the sender’s portfolio', async () => {
    const noAddress = await client.send({ messaging_product: 'whatsapp', type: 'text', text: { body: 'x' } });
    expectGraphError(noAddress, 400, 100);
    expect(noAddress.body.error.message).toBe('(#100) The parameter to is required.');
    expectGraphError(await client.send({ messaging_product: 'whatsapp', recipient: '15551234567', text: { body: 'x' } }), 400, 100);
    const foreign = await client.send({ messaging_product: 'whatsapp', recipient: bsuidOf(BUSINESS_B, BRAZIL), text: { body: 'x' } });
    expectGraphError(foreign, 400, 100);
    expect(foreign.body.error.message).toContain('business portfolio');
  });

  it('refuses authentication templates to a BSUID with 131062, and sends them to the number', async () => {
    const message = { ...templateMessage('login_code', 'en_US', ['123456']), to: undefined, recipient: bsuidOf(BUSINESS_A, BRAZIL) };
    const refused = await client.send(message);
    expectGraphError(refused, 400, 131062);
    expect(refused.body.error.message).toBe('(#131062) Business-scoped User ID (BSUID) recipients are not supported for this message.');
    expect(refused.body.error.type).toBe('OAuthException');
    expect((await client.send(templateMessage('login_code', 'en_US', ['123456']))).status).toBe(200);
  });

  it('accepts a parent BSUID from an enrolled portfolio only', async () => {
    const parentId = parentBsuidOf('P1', BRAZIL);
    const send = () => client.send({ messaging_product: 'whatsapp', recipient: parentId, text: { body: 'x' } });
    expectGraphError(await send(), 400, 100);
    expect((await client.sandboxApi('POST', '/parent-bsuid-accounts', { id: 'P1', businessIds: [BUSINESS_A] })).status).toBe(200);
    await client.sandboxApi('POST', '/users', { phone: BRAZIL });
    const sent = await send();
    expect(sent.body.contacts).toEqual([{ input: parentId, user_id: parentId }]);
    await drain();
    expect(values()[0].statuses[0]).toMatchObject({ recipient_user_id: bsuidOf(BUSINESS_A, BRAZIL), recipient_parent_user_id: parentId, recipient_id: BRAZIL });
  });
});

describe('user fields of webhooks', () => {
  it('puts user_id on every status of a send to a number, the username on delivered and read only', async () => {
    await client.sandboxApi('POST', '/users', { phone: RECIPIENT, username: 'ana.r', phoneWithheld: false });
    await client.send(textMessage(RECIPIENT));
    await drain();
    const changes = values();
    expect(changes.map((value) => value.statuses[0].status)).toEqual(['sent', 'delivered', 'read']);
    const userId = bsuidOf(BUSINESS_A, RECIPIENT);
    for (const value of changes) expect(value.statuses[0]).toMatchObject({ recipient_id: RECIPIENT, recipient_user_id: userId });
    expect(changes[0].contacts).toEqual([{ wa_id: RECIPIENT, user_id: userId }]);
    expect(changes[1].contacts).toEqual([{ profile: { username: 'ana.r' }, wa_id: RECIPIENT, user_id: userId }]);
    expect(changes[0].statuses[0].pricing).toEqual({ billable: false, pricing_model: 'PMP', type: 'free_customer_service', category: 'service' });
  });

  it('omits the number (never empty) of a phone-withheld user sent to by BSUID, until the business messages the number', async () => {
    await client.sandboxApi('POST', '/users', { phone: BRAZIL, username: 'ana.r' });
    const userId = bsuidOf(BUSINESS_A, BRAZIL);
    await client.send({ messaging_product: 'whatsapp', recipient: userId, text: { body: 'x' } });
    await drain();
    for (const value of values()) {
      expect('recipient_id' in value.statuses[0]).toBe(false);
      expect(value.statuses[0].recipient_user_id).toBe(userId);
      expect('wa_id' in value.contacts[0]).toBe(false);
    }
    receiver.clear();
    await client.send(textMessage(BRAZIL));
    await client.send({ messaging_product: 'whatsapp', recipient: userId, text: { body: 'again' } });
    await drain();
    expect(values().every((value) => value.statuses[0].recipient_id === BRAZIL)).toBe(true);
  });

  it('a failed status of a send to a number carries no BSUID and no contacts; of a BSUID send, the user id', async () => {
    await client.sandboxApi('POST', '/webhooks', { recipientFailures: { [RECIPIENT]: { code: 131026 } } });
    await client.send(textMessage(RECIPIENT));
    await drain();
    const failed = values().find((value) => value.statuses[0].status === 'failed');
    expect(failed.contacts).toBeUndefined();
    expect('recipient_user_id' in failed.statuses[0]).toBe(false);
    expect(failed.statuses[0].recipient_id).toBe(RECIPIENT);

    receiver.clear();
    await client.sandboxApi('POST', '/users', { phone: BRAZIL });
    await client.sandboxApi('POST', '/webhooks', { recipientFailures: { [BRAZIL]: { code: 131026 } } });
    await client.send({ messaging_product: 'whatsapp', recipient: bsuidOf(BUSINESS_A, BRAZIL), text: { body: 'x' } });
    await drain();
    const failedById = values().find((value) => value.statuses[0].status === 'failed');
    expect(failedById.contacts).toBeUndefined();
    expect(failedById.statuses[0].recipient_user_id).toBe(bsuidOf(BUSINESS_A, BRAZIL));
  });

  it('sends inbound messages of a username user without the number, and of a user known only by BSUID', async () => {
    await client.sandboxApi('POST', '/users', { phone: BRAZIL, username: 'ana.r', profileName: 'Ana R.' });
    await client.sandboxApi('POST', '/webhooks/inbound', { phoneNumberId: PHONE_ID, from: BRAZIL, text: 'oi' });
    const phoneless = await client.sandboxApi('POST', '/users', { businessId: BUSINESS_A, username: 'only.id', country: 'BR' });
    expect(phoneless.body.userId).toMatch(/^BR\.\d{20}$/);
    await client.sandboxApi('POST', '/webhooks/inbound', { phoneNumberId: PHONE_ID, fromUserId: phoneless.body.userId, text: 'hello' });
    await drain();
    const [withheld, idOnly] = values();
    expect(withheld.contacts).toEqual([{ profile: { name: 'Ana R.', username: 'ana.r' }, user_id: bsuidOf(BUSINESS_A, BRAZIL) }]);
    expect(withheld.messages[0]).not.toHaveProperty('from');
    expect(withheld.messages[0].from_user_id).toBe(bsuidOf(BUSINESS_A, BRAZIL));
    expect(idOnly.contacts[0]).toEqual({ profile: { name: 'Sandbox User', username: 'only.id' }, user_id: phoneless.body.userId });
    const foreign = await client.sandboxApi('POST', '/webhooks/inbound', { phoneNumberId: PHONE_ID, fromUserId: bsuidOf(BUSINESS_B, BRAZIL), text: 'x' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toContain('fromUserId');
    const sent = await client.send({ messaging_product: 'whatsapp', recipient: phoneless.body.userId, text: { body: 'x' } });
    expect(sent.body.contacts).toEqual([{ input: phoneless.body.userId, user_id: phoneless.body.userId }]);
  });

  it('validates users and lists each one’s BSUID per portfolio', async () => {
    expect((await client.sandboxApi('POST', '/users', { phone: 'abc' })).status).toBe(400);
    expect((await client.sandboxApi('POST', '/users', { phone: BRAZIL, username: '.bad' })).status).toBe(400);
    expect((await client.sandboxApi('POST', '/users', { username: 'no.portfolio' })).status).toBe(400);
    await client.sandboxApi('POST', '/users', { phone: `+${BRAZIL}`, username: 'ana.r' });
    const listed = await client.sandboxApi('GET', '/users');
    expect(listed.body.data).toEqual([
      {
        phone: BRAZIL,
        username: 'ana.r',
        phoneWithheld: true,
        userIds: { [BUSINESS_A]: bsuidOf(BUSINESS_A, BRAZIL), [BUSINESS_B]: bsuidOf(BUSINESS_B, BRAZIL) },
      },
    ]);
  });
});
