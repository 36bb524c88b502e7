/**
 * Every /upstream send carries our callback data (`u1:<sendId>`) and leaves a send record with its
 * outcome (shared/upstream/upstream-sends.ts); the caller's own callback data is replaced upstream
 * and kept in the record; answers to the caller do not change. Through the group's Lambda handler
 * with a scripted Graph transport and in-memory records.
 */
import { parseCallbackData } from '../../../shared/delivery/callback-data';
import { createWrapperKit, graphFailure, ids, ok, timeout, type WrapperKit } from '../../support/upstream-fakes';

let kit: WrapperKit;
const accepted = (request: { json?: unknown }) =>
  ok({ messaging_product: 'whatsapp', contacts: [{ input: 'x', wa_id: 'x' }], messages: [{ id: `wamid.sent-${(request.json as { to?: string }).to}` }] });

beforeEach(async () => {
  kit = await createWrapperKit();
  kit.graph.on('POST', `/${ids.phone}/messages`, accepted);
  kit.graph.on('POST', `/${ids.phone}/marketing_messages`, accepted);
});

const posts = () => kit.graph.calls().filter((request) => request.method === 'POST');
const callbackOf = (request: { json?: unknown }) => (request.json as Record<string, unknown>).biz_opaque_callback_data;
const sendText = (extra: Record<string, unknown> = {}) =>
  kit.call('sendMessage', { body: { to: '15551234567', type: 'text', text: { body: 'hi' }, ...extra } });
const marketingBody = { to: '15551234568', type: 'template', recipient_type: 'individual', template: { name: 'spring_sale', language: { code: 'en' } } };

describe('single sends (messages, marketing messages)', () => {
  it('carry u1:<sendId> upstream, answer exactly what Meta answered, and record the send with its message id', async () => {
    const response = await sendText();
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ messaging_product: 'whatsapp', contacts: [{ input: 'x', wa_id: 'x' }], messages: [{ id: 'wamid.sent-15551234567' }] });
    const upstream = posts()[0]!;
    expect(parseCallbackData(callbackOf(upstream))).toEqual({ kind: 'upstream-send', sendId: 'snd_0001' });
    expect(kit.idRecords.sends).toEqual([
      {
        organizationId: kit.org,
        wabaId: ids.waba,
        phoneNumberId: ids.phone,
        sendId: 'snd_0001',
        to: '15551234567',
        outcome: 'SENT',
        messageId: 'wamid.sent-15551234567',
        createdAt: kit.time.now(),
      },
    ]);
    // The message id record names its send, so an event carrying only the message id finds it.
    expect(kit.idRecords.messages.get(`${kit.org}#wamid.sent-15551234567`)).toEqual(expect.objectContaining({ direction: 'sent', sendId: 'snd_0001' }));
  });

  it("a caller's own biz_opaque_callback_data is replaced upstream and kept in the send record", async () => {
    const response = await sendText({ biz_opaque_callback_data: 'order-4711' });
    expect(response.body.messages[0].id).toBe('wamid.sent-15551234567');
    expect(callbackOf(posts()[0]!)).toBe('u1:snd_0001');
    expect(kit.idRecords.sends[0]).toEqual(expect.objectContaining({ sendId: 'snd_0001', customerCallbackData: 'order-4711' }));
  });

  it('marketing messages too, each send with a fresh send id', async () => {
    await sendText();
    const response = await kit.call('sendMarketingMessage', { body: { ...marketingBody, biz_opaque_callback_data: 'campaign-9' } });
    expect(response.status).toBe(200);
    expect(posts().map(callbackOf)).toEqual(['u1:snd_0001', 'u1:snd_0002']);
    expect(kit.idRecords.sends[1]).toEqual(
      expect.objectContaining({
        sendId: 'snd_0002',
        to: '15551234568',
        outcome: 'SENT',
        messageId: 'wamid.sent-15551234568',
        customerCallbackData: 'campaign-9',
      }),
    );
  });

  it('an unusable own callback data (not a string, over 512 characters) is a 400 naming the field; nothing sent or recorded', async () => {
    for (const value of [42, 'x'.repeat(513)]) {
      const response = await sendText({ biz_opaque_callback_data: value });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('body.biz_opaque_callback_data must be a string of at most 512 characters');
    }
    expect(posts()).toEqual([]);
    expect(kit.idRecords.sends).toEqual([]);
    // 512 characters are Meta's limit, so they pass (and are kept).
    expect((await sendText({ biz_opaque_callback_data: 'x'.repeat(512) })).status).toBe(200);
    expect(kit.idRecords.sends[0]!.customerCallbackData).toHaveLength(512);
  });

  it("a send whose answer never came (timeout) answers 502 as before and leaves an UNKNOWN record without message id; Meta's own 5xx error answers 502 too but records FAILED", async () => {
    kit.graph.on('POST', `/${ids.phone}/messages`, timeout, ok({ error: { message: 'down', code: 2 } }, 503));
    expect((await sendText({ biz_opaque_callback_data: 'mine' })).status).toBe(502);
    expect((await sendText()).status).toBe(502);
    expect(posts().map(callbackOf)).toEqual(['u1:snd_0001', 'u1:snd_0002']);
    expect(kit.idRecords.sends).toEqual([
      expect.objectContaining({ sendId: 'snd_0001', outcome: 'UNKNOWN', customerCallbackData: 'mine' }),
      // Issue 22: a 503 carrying Meta's error (code 2) is Meta's refusal, not an unknown outcome
      // (shared/sending/graph-answer.ts); it was UNKNOWN while the /upstream paths disagreed with the worker.
      expect.objectContaining({ sendId: 'snd_0002', outcome: 'FAILED' }),
    ]);
    expect(kit.idRecords.sends.every((send) => send.messageId === undefined)).toBe(true);
    expect(kit.idRecords.messages.size).toBe(1); // only the kit's own wamid.ABC
  });

  it('a send Meta refused answers its 400 as before and records FAILED', async () => {
    kit.graph.on('POST', `/${ids.phone}/messages`, graphFailure(400, 131026, { message: 'Message undeliverable' }));
    const response = await sendText();
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(131026);
    expect(kit.idRecords.sends).toEqual([expect.objectContaining({ sendId: 'snd_0001', outcome: 'FAILED' })]);
  });

  it('read receipts and typing indicators are not sends: no callback data, no send record', async () => {
    expect((await kit.call('markMessageRead', { body: { message_id: 'wamid.ABC' } })).status).toBe(200);
    expect((await kit.call('showTypingIndicator', { body: { message_id: 'wamid.ABC' } })).status).toBe(200);
    expect(posts().map(callbackOf)).toEqual([undefined, undefined]);
    expect(kit.idRecords.sends).toEqual([]);
  });

  it("a send refused before any call (another organization's number) records nothing", async () => {
    expect(
      (await kit.call('sendMessage', { pathParameters: { phoneNumberId: ids.otherPhone }, body: { to: '15551234567', type: 'text', text: { body: 'hi' } } }))
        .status,
    ).toBe(404);
    expect(kit.idRecords.sends).toEqual([]);
  });
});

describe('bulk sends', () => {
  const bulk = (recipients: string[]) =>
    kit.call('sendBulkTemplate', { body: { template: { name: 'order_update', language: 'en_US' }, recipients: recipients.map((to) => ({ to })) } });

  it('each recipient is its own send: its own callback data and record with its outcome; the answer is unchanged', async () => {
    kit.graph.on('POST', `/${ids.phone}/messages`, (request) => {
      const to = (request.json as { to: string }).to;
      if (to === '15550000002') return graphFailure(400, 131026);
      if (to === '15550000003') return timeout();
      return accepted(request);
    });
    const response = await bulk(['15550000001', '15550000002', '15550000003']);
    expect(response.body.summary).toEqual({ total: 3, sent: 1, failed: 1, unknown: 1, not_sent: 0 });
    expect(response.body.results[0]).toEqual({ to: '15550000001', status: 'sent', message_id: 'wamid.sent-15550000001', attempts: 1 });
    const byRecipient = new Map(posts().map((request) => [(request.json as { to: string }).to, callbackOf(request)]));
    expect(new Set(byRecipient.values()).size).toBe(3);
    const records = new Map(kit.idRecords.sends.map((send) => [send.to, send]));
    expect(records.get('15550000001')).toEqual(
      expect.objectContaining({ outcome: 'SENT', messageId: 'wamid.sent-15550000001', organizationId: kit.org, phoneNumberId: ids.phone }),
    );
    expect(records.get('15550000002')).toEqual(expect.objectContaining({ outcome: 'FAILED' }));
    expect(records.get('15550000003')).toEqual(expect.objectContaining({ outcome: 'UNKNOWN' }));
    for (const [to, send] of records) expect(byRecipient.get(to)).toBe(`u1:${send.sendId}`);
    expect(kit.idRecords.messages.get(`${kit.org}#wamid.sent-15550000001`)).toEqual(expect.objectContaining({ sendId: records.get('15550000001')!.sendId }));
  });

  it('a retried recipient keeps its one send id (only one attempt can be accepted)', async () => {
    let throttled = 0;
    kit.graph.on('POST', `/${ids.phone}/messages`, (request) => (throttled++ < 2 ? graphFailure(400, 130429) : accepted(request)));
    const response = await bulk(['15550000001']);
    expect(response.body.results[0]).toEqual(expect.objectContaining({ status: 'sent', attempts: 3 }));
    expect(posts().map(callbackOf)).toEqual(['u1:snd_0001', 'u1:snd_0001', 'u1:snd_0001']);
    expect(kit.idRecords.sends).toEqual([expect.objectContaining({ sendId: 'snd_0001', outcome: 'SENT' })]);
  });

  it('recipients never sent (out of time) leave no record', async () => {
    kit = await createWrapperKit({ bulk: { budgetMs: 1_500, concurrency: 1 } as never, defaultMessagesPerSecond: 1 });
    kit.graph.on('POST', `/${ids.phone}/messages`, accepted);
    const response = await bulk(['15550000001', '15550000002', '15550000003']);
    expect(response.body.summary.not_sent).toBeGreaterThan(0);
    expect(kit.idRecords.sends).toHaveLength(response.body.summary.sent);
  });
});
