/**
 * Standby through the local runtime and the sandbox's signed webhooks (fact sheet row 7,
 * docs/DELIVERY-STATUS.md "Standby"): while another app holds a number's conversations the sandbox
 * posts its inbound messages on the `standby` field; a STOP there is recorded as an opt-out, and
 * the sandbox refuses this app's free-form sends from the number with 131070.
 */
import { demoIds } from '../../../local/demo-tenant';
import { useSignedWebhookRuntime } from '../../support/signed-webhook-runtime';
import { DEMO } from '../broadcast/broadcast-test-kit';

jest.setTimeout(120_000);

describe('a number in standby', () => {
  const kit = useSignedWebhookRuntime();
  const { sandbox, settle } = kit;
  const v1 = (path: string) => kit.v1('GET', path);

  it('posts inbound on `standby`; a STOP there is recorded as an opt-out; free-form sends from it answer 131070', async () => {
    const from = '919500888001';
    expect((await sandbox('POST', `/phone-numbers/${DEMO.phoneNumberId1}/standby`, { standby: true })).body).toEqual({
      phoneNumberId: DEMO.phoneNumberId1,
      standby: true,
    });
    await sandbox('DELETE', '/webhooks/deliveries');

    expect((await sandbox('POST', '/webhooks/inbound', { phoneNumberId: DEMO.phoneNumberId1, from, text: 'STOP' })).status).toBe(200);
    await settle();
    const deliveries = (await sandbox('GET', '/webhooks/deliveries')).body.data as Array<{ body: string; status?: number }>;
    const posted = deliveries.map((delivery) => JSON.parse(delivery.body).entry[0].changes[0]);
    expect(posted.map((change: { field: string }) => change.field)).toEqual(['standby']);
    expect(posted[0].value.messages[0]).toMatchObject({ from, type: 'text', text: { body: 'STOP' } });

    const optOuts = (await v1('/opt-outs?pageSize=100')).body.data as Array<Record<string, unknown>>;
    expect(optOuts).toContainEqual(expect.objectContaining({ phoneNumber: from, source: 'keyword' }));
    // The contact and its window are recorded as for `messages`.
    const contacts = (await v1(`/contacts?search=${from}`)).body.data as Array<Record<string, unknown>>;
    expect(contacts).toEqual([expect.objectContaining({ phoneNumber: from })]);

    // This app does not own the thread: Meta (here the sandbox) refuses its free-form sends from the number.
    const send = (body: Record<string, unknown>) =>
      fetch(`${kit.runtime.sandboxUrl}/v25.0/${DEMO.phoneNumberId1}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${demoIds.upstreamToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ messaging_product: 'whatsapp', to: from, ...body }),
      });
    const refused = await send({ type: 'text', text: { body: 'Can I help?' } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: unknown }).error).toMatchObject({ code: 131070 });

    // Out of standby: inbound on `messages` again, and the send goes out.
    expect((await sandbox('DELETE', `/phone-numbers/${DEMO.phoneNumberId1}/standby`)).body).toEqual({ phoneNumberId: DEMO.phoneNumberId1, standby: false });
    expect((await send({ type: 'text', text: { body: 'Can I help?' } })).status).toBe(200);
  });
});
