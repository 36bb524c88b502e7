/**
 * Identity changes and marketing preferences (issue 35 item 8; docs/ORGANIZATIONS-AND-V1.md
 * "Identity changes"), through the local runtime and the sandbox's signed webhooks:
 * - a user who wrote STOP changes number (`user_changed_number` with `previous_user_id`): the new
 *   BSUID and number stay off a MARKETING template broadcast, and the contact shows the new ids;
 * - a `user_preferences` stop excludes the user from the next marketing broadcast (by BSUID and by
 *   number), listed as `user-preference`; a resume lets them back.
 */
import { demoIds } from '../../../local/demo-tenant';
import { useSignedWebhookRuntime } from '../../support/signed-webhook-runtime';
import { DEMO, sleep } from '../broadcast/broadcast-test-kit';

jest.setTimeout(120_000);

describe('identity changes and marketing preferences, from the sandbox’s signed webhooks', () => {
  const kit = useSignedWebhookRuntime();
  const { sandbox, settle, optOuts, sentTo } = kit;
  const v1 = (path: string) => kit.v1('GET', path);
  async function user(phone: string, username: string): Promise<string> {
    expect((await sandbox('POST', '/users', { phone, username, profileName: username, phoneWithheld: false })).status).toBe(200);
    const listed = (await sandbox('GET', '/users')).body.data as Array<{ phone?: string; userIds?: Record<string, string> }>;
    return listed.find((entry) => entry.phone === phone)!.userIds![demoIds.businessId]!;
  }
  const writes = async (fromUserId: string, text: string) => {
    expect((await sandbox('POST', '/webhooks/inbound', { phoneNumberId: DEMO.phoneNumberId1, fromUserId, text })).status).toBe(200);
    await settle();
  };
  const marketing = kit.marketingRow;
  const optedOut = { status: 'FAILED', failureReasonCode: 'OPTED_OUT' };

  it('a number change keeps the opt-out: the new BSUID and number are not sent a MARKETING template; the contact shows the new ids', async () => {
    const oldPhone = '447700900501';
    const newPhone = '447700900502';
    const oldId = await user(oldPhone, 'noor.moves');
    await writes(oldId, 'Hello');
    await writes(oldId, 'STOP');

    const changed = await sandbox('POST', '/webhooks/identity-change', { phoneNumberId: DEMO.phoneNumberId1, phone: oldPhone, newPhone });
    expect(changed.status).toBe(200);
    const newId = changed.body.userId as string;
    expect(changed.body.previousUserId).toBe(oldId);
    expect(newId).not.toBe(oldId);
    await settle();

    expect(await optOuts()).toContainEqual({ phoneNumber: null, userId: newId, source: 'keyword', createdAt: expect.any(String) });
    expect(await marketing({ userId: newId })).toMatchObject({ userId: newId, ...optedOut });
    expect(await marketing({ countryCode: '44', toPhoneNumber: newPhone.slice(2) })).toMatchObject(optedOut);
    // The sandbox logs a send by BSUID under the user's number: nothing went to the new identity.
    expect(await sentTo(newPhone)).toBe(0);
    const contacts = (await v1('/contacts?search=noor.moves')).body.data as Array<Record<string, unknown>>;
    expect(contacts).toEqual([expect.objectContaining({ phoneNumber: newPhone, userId: newId })]);
  });

  it('a user_preferences stop excludes the user from the next marketing broadcast; a resume lets them back', async () => {
    const phone = '447700900601';
    const userId = await user(phone, 'kai.prefs');
    await writes(userId, 'Hi'); // paired: Meta showed both ids

    expect((await sandbox('POST', '/webhooks/user-preferences', { phoneNumberId: DEMO.phoneNumberId1, fromUserId: userId, value: 'stop' })).status).toBe(200);
    await settle();
    const listed = await optOuts();
    expect(listed).toContainEqual({ phoneNumber: null, userId, source: 'user-preference', createdAt: expect.any(String) });
    expect(listed).toContainEqual({ phoneNumber: phone, source: 'user-preference', createdAt: expect.any(String) });
    expect(await marketing({ userId })).toMatchObject({ userId, ...optedOut });
    expect(await marketing({ countryCode: '44', toPhoneNumber: phone.slice(2) })).toMatchObject(optedOut);
    expect(await sentTo(phone)).toBe(0); // by BSUID or by number (the sandbox logs both under the number)

    await sleep(1_100); // Meta's times are whole seconds: the resume is the later one
    expect((await sandbox('POST', '/webhooks/user-preferences', { phoneNumberId: DEMO.phoneNumberId1, fromUserId: userId, value: 'resume' })).status).toBe(200);
    await settle();
    expect(await optOuts()).not.toContainEqual(expect.objectContaining({ source: 'user-preference' }));
    expect(await marketing({ userId })).toMatchObject({ userId, status: expect.not.stringMatching(/FAILED/) });
    expect(await sentTo(phone)).toBe(1);
  });
});
