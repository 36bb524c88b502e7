/**
 * The sandbox's identity events (sandbox/identity-events.ts): a user's change of number as Meta's
 * system message, and `user_preferences` stops and resumes, posted signed with the shapes of
 * ../shared/meta/usernames-and-bsuid.md §4; bad bodies answer 400, an unknown number 404.
 */
import { bsuidOf } from '../../../sandbox/user-identity';
import { useSandbox } from '../../support/use-sandbox';
import { accountA, PHONE_ID } from './sandbox-test-helpers';
import { Receiver } from './webhook-receiver';

const BUSINESS_A = '9000001';
const OLD = '447700900123';
const NEW = '447700900999';
const receiver = new Receiver();
const client = useSandbox({ accounts: [accountA()] });

beforeAll(() => receiver.start());
afterAll(() => receiver.stop());
beforeEach(async () => {
  await client.sandboxApi('POST', '/webhooks/drain');
  client.sandbox.reset();
  receiver.clear();
  expect((await client.sandboxApi('POST', '/webhooks', { url: receiver.url, appSecret: 'identity-secret', sentDelayMs: 0, batch: false })).status).toBe(200);
});

async function changes(): Promise<Array<{ field: string; value: any }>> {
  expect((await client.sandboxApi('POST', '/webhooks/drain')).status).toBe(200);
  return receiver.received.flatMap((post) => post.body.entry.flatMap((entry: any) => entry.changes));
}

it('a change of number: the new number gets its own BSUID, and the system message carries the new and previous ids', async () => {
  await client.sandboxApi('POST', '/users', { phone: OLD, username: 'noor.n', profileName: 'Noor', phoneWithheld: false });
  const answer = await client.sandboxApi('POST', '/webhooks/identity-change', { phoneNumberId: PHONE_ID, phone: OLD, newPhone: NEW });
  expect(answer.body).toEqual({ previousUserId: bsuidOf(BUSINESS_A, OLD), userId: bsuidOf(BUSINESS_A, NEW), messageId: expect.any(String) });
  const [change] = await changes();
  expect(change!.field).toBe('messages');
  expect(change!.value.contacts).toBeUndefined();
  expect(change!.value.messages).toEqual([
    {
      from: OLD,
      from_user_id: bsuidOf(BUSINESS_A, OLD),
      id: answer.body.messageId,
      timestamp: expect.stringMatching(/^\d+$/),
      type: 'system',
      system: {
        body: 'User changed number',
        type: 'user_changed_number',
        user_id: bsuidOf(BUSINESS_A, NEW),
        wa_id: NEW,
        previous_user_id: bsuidOf(BUSINESS_A, OLD),
      },
    },
  ]);
  const listed = (await client.sandboxApi('GET', '/users')).body.data as Array<{ phone: string; username?: string }>;
  expect(listed).toContainEqual(expect.objectContaining({ phone: NEW, username: 'noor.n' }));

  await client.sandboxApi('POST', '/webhooks/identity-change', { phoneNumberId: PHONE_ID, phone: NEW, newPhone: '447700900777', type: 'user_changed_user_id' });
  const second = (await changes())[1]!.value.messages[0].system;
  expect(second).toMatchObject({ type: 'user_changed_user_id', previous_user_id: bsuidOf(BUSINESS_A, NEW) });
  expect(second).not.toHaveProperty('wa_id');
});

it('user preferences: a stop and a resume of marketing messages, by number or BSUID', async () => {
  await client.sandboxApi('POST', '/webhooks/user-preferences', { phoneNumberId: PHONE_ID, from: OLD, value: 'stop' });
  await client.sandboxApi('POST', '/webhooks/user-preferences', { phoneNumberId: PHONE_ID, fromUserId: bsuidOf(BUSINESS_A, OLD), value: 'resume' });
  const [stop, resume] = await changes();
  expect(stop!.field).toBe('user_preferences');
  expect(stop!.value.metadata).toEqual(expect.objectContaining({ phone_number_id: PHONE_ID }));
  expect(stop!.value.user_preferences).toEqual([
    { wa_id: OLD, user_id: bsuidOf(BUSINESS_A, OLD), category: 'marketing_messages', value: 'stop', detail: expect.any(String), timestamp: expect.any(Number) },
  ]);
  expect(resume!.value.user_preferences[0]).toMatchObject({ user_id: bsuidOf(BUSINESS_A, OLD), value: 'resume' });
});

it('refuses bad bodies (400) and unknown numbers (404)', async () => {
  const post = (path: string, body: unknown) => client.sandboxApi('POST', path, body);
  expect((await post('/webhooks/identity-change', { phoneNumberId: PHONE_ID, phone: OLD })).status).toBe(400);
  expect((await post('/webhooks/identity-change', { phoneNumberId: PHONE_ID, phone: OLD, newPhone: OLD })).status).toBe(400);
  expect((await post('/webhooks/identity-change', { phoneNumberId: PHONE_ID, phone: OLD, newPhone: NEW, type: 'other' })).status).toBe(400);
  expect((await post('/webhooks/identity-change', { phoneNumberId: '999', phone: OLD, newPhone: NEW })).status).toBe(404);
  expect((await post('/webhooks/user-preferences', { phoneNumberId: PHONE_ID, from: OLD, value: 'pause' })).status).toBe(400);
  expect((await post('/webhooks/user-preferences', { phoneNumberId: PHONE_ID, value: 'stop' })).status).toBe(400);
});
