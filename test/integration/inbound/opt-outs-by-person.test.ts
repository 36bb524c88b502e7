/**
 * Opt-outs by person, in every form of a number (issue 35 item 1; docs/ORGANIZATIONS-AND-V1.md "One
 * identity per user"), through the local runtime and the sandbox's signed webhooks: Meta pairs a
 * Mexican user's BSUID with the number in its older form (`52 1 …`, their `wa_id`); an opt-out the
 * API adds in today's form (`52 …`) reaches the BSUID, so a MARKETING template broadcast naming the
 * BSUID does not send to it (FAILED OPTED_OUT); removing it in the older form lifts it for both.
 */
import { demoIds } from '../../../local/demo-tenant';
import { useSignedWebhookRuntime } from '../../support/signed-webhook-runtime';
import { DEMO } from '../broadcast/broadcast-test-kit';

jest.setTimeout(120_000);

describe('an opt-out in either form of a Mexican number reaches the paired BSUID', () => {
  const kit = useSignedWebhookRuntime();
  const { sandbox, settle, optOuts, sentTo } = kit;
  const v1 = kit.v1;

  const marketing = kit.marketingRow;

  it('adds in today’s form, holds the BSUID of the older form’s pair, and a removal in the older form lifts both', async () => {
    const metaForm = '5215511112222'; // the wa_id Meta shows for an account registered before 2019
    const todayForm = '525511112222';
    expect((await sandbox('POST', '/users', { phone: metaForm, username: 'lupe.mx', profileName: 'Lupe', phoneWithheld: false })).status).toBe(200);
    const listed = (await sandbox('GET', '/users')).body.data as Array<{ phone?: string; userIds?: Record<string, string> }>;
    const userId = listed.find((entry) => entry.phone === metaForm)!.userIds![demoIds.businessId]!;
    // The user writes: the webhook carries both ids, so the contact book pairs the BSUID with Meta's digits.
    expect((await sandbox('POST', '/webhooks/inbound', { phoneNumberId: DEMO.phoneNumberId1, fromUserId: userId, text: 'Hola' })).status).toBe(200);
    await settle();

    expect((await v1('POST', '/opt-outs', { phoneNumber: todayForm })).status).toBe(201);
    expect(await optOuts()).toContainEqual({ phoneNumber: null, userId, source: 'api', createdAt: expect.any(String) });
    expect(await marketing({ userId })).toMatchObject({ userId, status: 'FAILED', failureReasonCode: 'OPTED_OUT' });
    expect(await sentTo(metaForm)).toBe(0); // the sandbox logs a send by BSUID under the user's number

    expect((await v1('DELETE', `/opt-outs/${metaForm}`)).status).toBe(204);
    const left = await optOuts();
    expect(left).not.toContainEqual(expect.objectContaining({ userId }));
    expect(left).not.toContainEqual(expect.objectContaining({ phoneNumber: todayForm }));
    expect(await marketing({ userId })).toMatchObject({ userId, status: expect.not.stringMatching(/FAILED/) });
    expect(await marketing({ countryCode: '52', toPhoneNumber: todayForm.slice(2) })).toMatchObject({ status: expect.not.stringMatching(/FAILED/) });
  });
});
