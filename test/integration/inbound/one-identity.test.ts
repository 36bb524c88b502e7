/**
 * One identity per user through the local runtime and the sandbox's signed webhooks
 * (docs/ORGANIZATIONS-AND-V1.md "One identity per user"):
 * - an inbound message from a user Meta shows only by BSUID makes a v1 contact with `userId` and
 *   `username` and no number;
 * - that user's STOP excludes them from a broadcast naming their `userId`, and, once Meta shows the
 *   pair (the user is in the contact book and writes again), from a broadcast naming their number;
 * - a contact and an opt-out written in the shape used before BSUIDs keep working, and take part.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { getServices } from '../../../functions/composition';
import { createCompositionContext } from '../../../functions/composition/composition-context';
import { dynamoDbClients } from '../../../functions/composition/dynamodb-clients';
import { inboxKeys } from '../../../shared/adapters/dynamodb/inbox-table';
import { demoIds } from '../../../local/demo-tenant';
import { BASE, DEMO, keyHeader, orderUpdate, waitForTerminal } from '../broadcast/broadcast-test-kit';
import { useSignedWebhookRuntime } from '../../support/signed-webhook-runtime';

jest.setTimeout(180_000);

type Row = { toPhoneNumber: string; userId?: string; status: string; failureReasonCode: string | null };

describe('one identity per user, from the sandbox’s signed webhooks', () => {
  const kit = useSignedWebhookRuntime();
  const { sandbox, settle, optOuts } = kit;
  const v1 = (path: string) => kit.v1('GET', path);

  /** A sandbox user with a number and a username; `inContactBook` false: Meta withholds the number from webhooks. */
  async function user(phone: string, username: string, inContactBook: boolean): Promise<string> {
    expect((await sandbox('POST', '/users', { phone, username, profileName: username, phoneWithheld: !inContactBook })).status).toBe(200);
    const listed = (await sandbox('GET', '/users')).body.data as Array<{ phone?: string; userIds?: Record<string, string> }>;
    return listed.find((entry) => entry.phone === phone)!.userIds![demoIds.businessId]!;
  }
  const writes = async (fromUserId: string, text: string) => {
    expect((await sandbox('POST', '/webhooks/inbound', { phoneNumberId: DEMO.phoneNumberId1, fromUserId, text })).status).toBe(200);
    await settle();
  };
  const contactNamed = async (name: string) => (await v1(`/contacts?search=${name}`)).body.data as Array<Record<string, unknown>>;
  async function broadcast(recipient: Record<string, unknown>): Promise<Row> {
    const other = { countryCode: '91', toPhoneNumber: String(9_600_000_000 + Math.floor(Math.random() * 1_000_000)), templateParams: ['Bo', 'ORD-2'] };
    const accepted = await kit.runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: keyHeader(kit.key),
      body: orderUpdate([{ ...recipient, templateParams: ['Ana', 'ORD-1'] } as never, other]),
    });
    expect(accepted.status).toBe(200);
    const jobId = accepted.headers.get('x-broadcast-job-id')!;
    await waitForTerminal(kit.runtime.demo.organizationId, jobId, 60_000);
    const rows = (await kit.runtime.call('GET', `${BASE}/broadcasts/${jobId}/recipients`, { headers: keyHeader(kit.key) })).body.data.recipients as Row[];
    expect(rows[1]!.status).not.toBe('FAILED');
    return rows[0]!;
  }

  it('a BSUID-only user’s message makes a contact without a number; their STOP holds for their userId and, once paired, their number', async () => {
    const phone = '919500777001';
    const userId = await user(phone, 'ana.identity', false);

    await writes(userId, 'Hello');
    const [contact] = await contactNamed('ana.identity');
    expect(contact).toMatchObject({ phoneNumber: null, userId, username: 'ana.identity', name: 'ana.identity' });

    await writes(userId, 'STOP');
    expect(await optOuts()).toContainEqual({ phoneNumber: null, userId, source: 'keyword', createdAt: expect.any(String) });
    expect(await broadcast({ userId })).toMatchObject({ userId, status: 'FAILED', failureReasonCode: 'OPTED_OUT' });
    // Not paired yet: the number alone is not known to be this user.
    expect(await optOuts()).not.toContainEqual(expect.objectContaining({ phoneNumber: phone }));

    // Meta pairs them: the user is in the portfolio's contact book and writes again, so the webhook carries both ids.
    await user(phone, 'ana.identity', true);
    await writes(userId, 'Are you there?');
    expect(await optOuts()).toContainEqual({ phoneNumber: phone, source: 'keyword', createdAt: expect.any(String) });
    expect(await broadcast({ countryCode: '91', toPhoneNumber: phone.slice(2) })).toMatchObject({
      toPhoneNumber: phone.slice(2),
      status: 'FAILED',
      failureReasonCode: 'OPTED_OUT',
    });
    // The same contact now holds the number too.
    expect(await contactNamed('ana.identity')).toEqual([expect.objectContaining({ id: contact!.id, phoneNumber: phone, userId })]);
  });

  it('a contact and an opt-out written before BSUIDs (phone-keyed, old item shape) are found and extended, and the opt-out follows the pair', async () => {
    const phone = '919500777002';
    const organizationId = kit.runtime.demo.organizationId;
    const created = await kit.runtime.call('POST', '/v1/contacts', {
      headers: { authorization: `Bearer ${kit.runtime.demo.v1ApiKey}` },
      body: { phoneNumber: phone, name: 'Legacy Lee' },
    });
    expect(created.status).toBe(201);
    // An opt-out item as written before records had a state or a write token.
    const context = createCompositionContext(getServices().config);
    await dynamoDbClients(context).document.send(
      new PutCommand({
        TableName: context.config.tableNames.inbox!,
        Item: { ...inboxKeys.optOut(organizationId, phone), entity: 'opt-out', phoneNumber: phone, source: 'api', createdAt: '2026-01-05T10:00:00.000Z' },
      }),
    );
    expect(await broadcast({ countryCode: '91', toPhoneNumber: phone.slice(2) })).toMatchObject({ status: 'FAILED', failureReasonCode: 'OPTED_OUT' });

    const userId = await user(phone, 'lee.legacy', true);
    await writes(userId, 'Hi, it is Lee');
    expect(await contactNamed('Legacy')).toEqual([
      expect.objectContaining({ id: created.body.data.id, phoneNumber: phone, userId, username: 'lee.legacy', name: 'Legacy Lee' }),
    ]);
    expect(await optOuts()).toContainEqual({ phoneNumber: null, userId, source: 'api', createdAt: expect.any(String) });
    expect(await broadcast({ userId })).toMatchObject({ userId, status: 'FAILED', failureReasonCode: 'OPTED_OUT' });
  });
});
