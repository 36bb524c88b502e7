/**
 * The sandbox's webhooks against a local receiver: Meta's shapes, the signature over the raw body,
 * the status sequence, async failures, duplicates, reordering, lateness, retries, inbound and
 * template-status injection, and drain.
 */
import { createHmac } from 'node:crypto';
import { useSandbox } from '../../support/use-sandbox';
import { bsuidOf } from '../../../sandbox/user-identity';
import { Receiver } from './webhook-receiver';
import { OTHER_WABA_ID, PHONE_ID, RECIPIENT, WABA_ID, expectGraphError, fixtureAccounts, templateMessage, textMessage } from './sandbox-test-helpers';

const APP_SECRET = 'test-app-secret';

const receiver = new Receiver();
const logged: string[] = [];
const client = useSandbox({ accounts: fixtureAccounts(), log: (line) => logged.push(line) });

/**
 * Fast delays, every message delivered and read, unless a test says otherwise. One POST at a time,
 * so arrival order is the order the statuses became due.
 */
const FAST = { sentDelayMs: 0, deliveredDelayMs: 20, readDelayMs: 40, readRate: 1, concurrency: 1, batch: false };

beforeAll(() => receiver.start());
afterAll(() => receiver.stop());
beforeEach(async () => {
  client.sandbox.reset();
  receiver.clear();
  logged.length = 0;
  const configured = await client.sandboxApi('POST', '/webhooks', { url: receiver.url, appSecret: APP_SECRET, ...FAST });
  expect(configured.status).toBe(200);
});

async function drain(): Promise<void> {
  const drained = await client.sandboxApi('POST', '/webhooks/drain');
  expect(drained).toMatchObject({ status: 200, body: { drained: true } });
}

async function sendText(to = RECIPIENT, extra: Record<string, unknown> = {}): Promise<string> {
  const sent = await client.send({ ...textMessage(to), ...extra });
  expect(sent.status).toBe(200);
  return sent.body.messages[0].id as string;
}

describe('status webhooks of an accepted send', () => {
  it('posts sent, delivered and read in Meta’s shape, signed over the exact raw body', async () => {
    const messageId = await sendText(RECIPIENT, { biz_opaque_callback_data: 'b1:job-1:0:7' });
    await drain();

    expect(receiver.received).toHaveLength(3);
    for (const post of receiver.received) {
      const expected = `sha256=${createHmac('sha256', APP_SECRET).update(post.raw).digest('hex')}`;
      expect(post.signature).toBe(expected);
      expect(post.body).toMatchObject({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: WABA_ID,
            changes: [
              { field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550001001', phone_number_id: PHONE_ID } } },
            ],
          },
        ],
      });
    }
    const statuses = receiver.statuses();
    expect(statuses.map((status) => status.status)).toEqual(['sent', 'delivered', 'read']);
    for (const status of statuses) {
      expect(status).toMatchObject({
        id: messageId,
        recipient_id: RECIPIENT,
        biz_opaque_callback_data: 'b1:job-1:0:7',
        timestamp: expect.stringMatching(/^\d{10}$/),
      });
      expect(status.errors).toBeUndefined();
    }
    const [sent, delivered, read] = statuses;
    for (const billed of [sent, delivered]) {
      expect(billed.pricing).toEqual({ billable: false, pricing_model: 'PMP', category: 'service', type: 'free_customer_service' });
      // Meta leaves `conversation` out from v24.0 (outside free-entry-point windows); the sandbox serves v25.0.
      expect(billed.conversation).toBeUndefined();
    }
    expect(read.pricing).toBeUndefined();
    expect(read.conversation).toBeUndefined();
    expect(Number(sent.timestamp)).toBeLessThanOrEqual(Number(read.timestamp));
  });

  it('prices template sends as regular and billable in the template’s category', async () => {
    const sent = await client.send(templateMessage('order_update', 'en_US', ['Ann', '42']));
    expect(sent.status).toBe(200);
    await drain();
    expect(receiver.statuses()[0].pricing).toEqual({ billable: true, pricing_model: 'PMP', category: 'utility', type: 'regular' });
  });

  it('omits biz_opaque_callback_data when the send had none, and refuses one over 512 characters', async () => {
    await sendText();
    await drain();
    expect(receiver.statuses().every((status) => !('biz_opaque_callback_data' in status))).toBe(true);
    expectGraphError(await client.send({ ...textMessage(), biz_opaque_callback_data: 'x'.repeat(513) }), 400, 100);
  });

  it('delivers at deliveredRate and reads at readRate', async () => {
    await client.sandboxApi('POST', '/webhooks', { readRate: 0 });
    await sendText();
    await drain();
    expect(receiver.statuses().map((status) => status.status)).toEqual(['sent', 'delivered']);

    receiver.clear();
    await client.sandboxApi('POST', '/webhooks', { deliveredRate: 0 });
    await sendText();
    await drain();
    expect(receiver.statuses().map((status) => status.status)).toEqual(['sent']);
  });

  it('draws rates from a seeded PRNG: the same seed gives the same fates', async () => {
    const fates = async () => {
      await client.sandboxApi('POST', '/webhooks', { readRate: 0.5, seed: 42 });
      receiver.clear();
      const ids = [];
      for (let index = 0; index < 8; index += 1) ids.push(await sendText(`1555000${String(index).padStart(4, '0')}`));
      await drain();
      const statuses = receiver.statuses();
      return ids.map((id) =>
        statuses
          .filter((status) => status.id === id)
          .map((status) => status.status)
          .sort()
          .join(','),
      );
    };
    const first = await fates();
    const second = await fates();
    expect(second).toEqual(first);
    expect(new Set(first).size).toBe(2);
  });

  it('drops what is scheduled when turned off', async () => {
    await client.sandboxApi('POST', '/webhooks', { sentDelayMs: 60_000 });
    await sendText();
    expect(client.sandbox.webhooks.stats().scheduled).toBe(3);
    await client.sandboxApi('POST', '/webhooks', { enabled: false });
    await drain();
    expect(client.sandbox.webhooks.stats().scheduled).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });

  it('posts nothing while disabled, and drain answers at once', async () => {
    await client.sandboxApi('POST', '/webhooks', { enabled: false });
    await sendText();
    await drain();
    expect(receiver.received).toHaveLength(0);
    expect((await client.sandboxApi('GET', '/webhooks')).body).toMatchObject({ enabled: false, active: false });
  });
});

describe('async failures per recipient', () => {
  it.each([
    [131049, 'This message was not delivered to maintain healthy ecosystem engagement.'],
    [131026, 'Message Undeliverable'],
    [131050, 'User has stopped receiving marketing messages'],
    [131047, 'Re-engagement message'],
  ])('%i: the recipient gets sent, then failed with Meta’s title', async (code, title) => {
    await client.sandboxApi('POST', '/webhooks', { recipientFailures: { [`+${RECIPIENT}`]: { code } } });
    const messageId = await sendText();
    await drain();
    const statuses = receiver.statuses();
    expect(statuses.map((status) => status.status)).toEqual(['sent', 'failed']);
    expect(statuses[1]).toMatchObject({
      id: messageId,
      recipient_id: RECIPIENT,
      errors: [{ code, title, message: title, error_data: { details: expect.any(String) }, href: expect.any(String) }],
    });
    expect(statuses[1].pricing).toBeUndefined();
  });

  it('fails only `times` messages, and only that recipient', async () => {
    await client.sandboxApi('POST', '/webhooks', { recipientFailures: { [RECIPIENT]: { code: 131049, times: 1 } } });
    const failed = await sendText();
    const other = await sendText('15559990000');
    const later = await sendText();
    await drain();
    const statusesOf = (id: string) =>
      receiver
        .statuses()
        .filter((status) => status.id === id)
        .map((status) => status.status);
    expect(statusesOf(failed)).toEqual(['sent', 'failed']);
    expect(statusesOf(other)).toEqual(['sent', 'delivered', 'read']);
    expect(statusesOf(later)).toEqual(['sent', 'delivered', 'read']);
  });
});

describe('duplicates, reordering and lateness', () => {
  it('posts every status twice at duplicateRate 1', async () => {
    await client.sandboxApi('POST', '/webhooks', { duplicateRate: 1 });
    await sendText();
    await drain();
    expect(
      receiver
        .statuses()
        .map((status) => status.status)
        .sort(),
    ).toEqual(['delivered', 'delivered', 'read', 'read', 'sent', 'sent']);
    expect(new Set(receiver.received.map((post) => post.raw)).size).toBe(3);
  });

  it('posts read before delivered before sent at reorderRate 1, with the true timestamps', async () => {
    await client.sandboxApi('POST', '/webhooks', { reorderRate: 1 });
    await sendText();
    await drain();
    const statuses = receiver.statuses();
    expect(statuses.map((status) => status.status)).toEqual(['read', 'delivered', 'sent']);
    const byStatus = Object.fromEntries(statuses.map((status) => [status.status, Number(status.timestamp)]));
    expect(byStatus.sent).toBeLessThanOrEqual(byStatus.delivered);
    expect(byStatus.delivered).toBeLessThanOrEqual(byStatus.read);
  });

  it('holds statuses after sent for lateDelayMs at lateRate 1; drain times out meanwhile and reset drops them', async () => {
    await client.sandboxApi('POST', '/webhooks', { lateRate: 1, lateDelayMs: 60_000 });
    await sendText();
    for (let tries = 0; receiver.received.length === 0 && tries < 1000; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(receiver.statuses().map((status) => status.status)).toEqual(['sent']);
    const waited = await client.sandboxApi('POST', '/webhooks/drain?timeoutMs=20');
    expect(waited).toMatchObject({ status: 504, body: { drained: false, stats: { scheduled: 2 } } });

    client.sandbox.reset();
    expect(client.sandbox.webhooks.stats()).toMatchObject({ scheduled: 0, queued: 0 });
    await drain();
    expect(receiver.statuses()).toHaveLength(1);
  });
});

describe('delivery to the receiver', () => {
  it('retries a non-2xx answer with backoff and lists every attempt', async () => {
    await client.sandboxApi('POST', '/webhooks', { deliveredRate: 0, retryBaseMs: 5 });
    receiver.answers.push(500, 503);
    await sendText();
    await drain();
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((post) => post.raw)).size).toBe(1);

    const listed = await client.sandboxApi('GET', '/webhooks/deliveries');
    expect(listed.body.data.map((delivery: any) => [delivery.attempt, delivery.status, delivery.ok])).toEqual([
      [1, 500, false],
      [2, 503, false],
      [3, 200, true],
    ]);
    expect(new Set(listed.body.data.map((delivery: any) => delivery.postId)).size).toBe(1);
    expect(listed.body.data[2]).toMatchObject({ url: receiver.url, events: ['sent'], body: receiver.received[2]!.raw });
    expect(listed.body.stats).toMatchObject({ attempts: 3, succeeded: 1, failedAttempts: 2, dropped: 0, acceptedStatuses: { sent: 1 } });
    expect(logged).toHaveLength(1);
  });

  it('gives up after maxAttempts against a missing endpoint, logs once and keeps serving', async () => {
    await client.sandboxApi('POST', '/webhooks', { maxAttempts: 2, retryBaseMs: 1 });
    receiver.answers.push(404, 404, 404, 404, 404, 404);
    await sendText();
    await drain();
    expect(receiver.received).toHaveLength(6);
    expect(client.sandbox.webhooks.stats()).toMatchObject({ attempts: 6, succeeded: 0, dropped: 3 });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('answered 404');
    expect((await client.sandboxApi('GET', '/health')).status).toBe(200);
  });

  it('keeps going when the receiver is not listening at all', async () => {
    await client.sandboxApi('POST', '/webhooks', { url: 'http://127.0.0.1:9/nothing', maxAttempts: 2, retryBaseMs: 1 });
    await sendText();
    await drain();
    expect(client.sandbox.webhooks.stats()).toMatchObject({ dropped: 3, succeeded: 0 });
    expect(client.sandbox.webhooks.deliveries()[0]).toMatchObject({ status: null, ok: false, error: expect.any(String) });
    await client.sandboxApi('POST', '/webhooks', { url: receiver.url });
  });

  it('batches statuses of one number into fewer POSTs when batch is on', async () => {
    await client.sandboxApi('POST', '/webhooks', { batch: true, batchWindowMs: 1000, sentDelayMs: 200, deliveredDelayMs: 400, readRate: 0 });
    for (let index = 0; index < 4; index += 1) await sendText(`1555111${String(index).padStart(4, '0')}`);
    await drain();
    expect(receiver.statuses()).toHaveLength(8);
    expect(receiver.received.length).toBeLessThan(8);
    expect(Math.max(...receiver.received.map((post) => post.body.entry[0].changes[0].value.statuses.length))).toBeGreaterThan(1);
  });
});

describe('injected events', () => {
  it('posts an inbound text message with the sender’s contact', async () => {
    const injected = await client.sandboxApi('POST', '/webhooks/inbound', {
      phoneNumberId: PHONE_ID,
      from: '+15557654321',
      text: 'Hi there',
      profileName: 'Ann',
    });
    expect(injected).toMatchObject({ status: 200, body: { messageId: expect.stringMatching(/^wamid\./) } });
    await drain();
    expect(receiver.received).toHaveLength(1);
    const post = receiver.received[0]!;
    expect(post.signature).toBe(`sha256=${createHmac('sha256', APP_SECRET).update(post.raw).digest('hex')}`);
    expect(post.body).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WABA_ID,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550001001', phone_number_id: PHONE_ID },
                contacts: [{ profile: { name: 'Ann' }, wa_id: '15557654321', user_id: bsuidOf('9000001', '15557654321') }],
                messages: [
                  {
                    from: '15557654321',
                    from_user_id: bsuidOf('9000001', '15557654321'),
                    id: injected.body.messageId,
                    timestamp: expect.stringMatching(/^\d{10}$/),
                    type: 'text',
                    text: { body: 'Hi there' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
  });

  it('posts replies as Meta shapes them: a text with context, a template quick-reply tap, an interactive button reply', async () => {
    const inbound = (extra: Record<string, unknown>) =>
      client.sandboxApi('POST', '/webhooks/inbound', { phoneNumberId: PHONE_ID, from: '15557654321', ...extra });
    expect((await inbound({ text: 'Yes!', context: { id: 'wamid.OUR1' } })).status).toBe(200);
    expect((await inbound({ context: { id: 'wamid.OUR2' }, button: { payload: 'YES-1', text: 'Yes' } })).status).toBe(200);
    expect(
      (await inbound({ context: { id: 'wamid.OUR3' }, interactive: { type: 'button_reply', button_reply: { id: 'opt-2', title: 'Later' } } })).status,
    ).toBe(200);
    // A tap names the message whose button was tapped; a malformed part is refused.
    expect((await inbound({ button: { payload: 'YES-1', text: 'Yes' } })).status).toBe(400);
    expect((await inbound({ text: 'x', context: { id: '' } })).status).toBe(400);
    await drain();
    const messages = receiver.received.map((post) => post.body.entry[0].changes[0].value.messages[0]);
    const context = (id: string) => ({ from: '15550001001', id });
    expect(messages).toEqual([
      expect.objectContaining({ type: 'text', text: { body: 'Yes!' }, context: context('wamid.OUR1') }),
      expect.objectContaining({ type: 'button', button: { payload: 'YES-1', text: 'Yes' }, context: context('wamid.OUR2') }),
      expect.objectContaining({
        type: 'interactive',
        interactive: { type: 'button_reply', button_reply: { id: 'opt-2', title: 'Later' } },
        context: context('wamid.OUR3'),
      }),
    ]);
  });

  it('refuses inbound for an unknown number, bad input, or while webhooks are off', async () => {
    expect((await client.sandboxApi('POST', '/webhooks/inbound', { phoneNumberId: '999', from: '15557654321', text: 'x' })).status).toBe(404);
    expect((await client.sandboxApi('POST', '/webhooks/inbound', { phoneNumberId: PHONE_ID, from: 'abc', text: 'x' })).status).toBe(400);
    await client.sandboxApi('POST', '/webhooks', { enabled: false });
    expect((await client.sandboxApi('POST', '/webhooks/inbound', { phoneNumberId: PHONE_ID, from: '15557654321', text: 'x' })).status).toBe(409);
  });

  it('changes a template’s status, posts message_template_status_update, and sends see the new status', async () => {
    const changed = await client.sandboxApi('POST', '/webhooks/template-status', { name: 'order_update', language: 'en_US', status: 'PAUSED' });
    expect(changed).toMatchObject({ status: 200, body: { id: '3000001', status: 'PAUSED', notified: true } });
    await drain();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.body).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WABA_ID,
          time: expect.any(Number),
          changes: [
            {
              field: 'message_template_status_update',
              value: {
                event: 'PAUSED',
                message_template_id: 3000001,
                message_template_name: 'order_update',
                message_template_language: 'en_US',
                reason: null,
                other_info: { title: 'FIRST_PAUSE', description: expect.any(String) },
              },
            },
          ],
        },
      ],
    });
    expectGraphError(await client.send(templateMessage('order_update', 'en_US', ['Ann', '42'])), 400, 132015);

    await client.sandboxApi('POST', '/webhooks/template-status', { wabaId: WABA_ID, name: 'order_update', language: 'en_US', status: 'APPROVED' });
    expect((await client.send(templateMessage('order_update', 'en_US', ['Ann', '42']))).status).toBe(200);
  });

  it('refuses an unknown template, a wrong account or an unknown status', async () => {
    expect((await client.sandboxApi('POST', '/webhooks/template-status', { name: 'nope', language: 'en_US', status: 'PAUSED' })).status).toBe(404);
    expect(
      (await client.sandboxApi('POST', '/webhooks/template-status', { wabaId: OTHER_WABA_ID, name: 'order_update', language: 'en_US', status: 'PAUSED' }))
        .status,
    ).toBe(404);
    expect((await client.sandboxApi('POST', '/webhooks/template-status', { name: 'order_update', language: 'en_US', status: 'SLEEPY' })).status).toBe(400);
  });
});

describe('settings', () => {
  it('validates the whole patch before applying any of it and never shows the secret', async () => {
    expect((await client.sandboxApi('POST', '/webhooks', { readRate: 2 })).status).toBe(400);
    expect((await client.sandboxApi('POST', '/webhooks', { url: 'ftp://x' })).status).toBe(400);
    expect((await client.sandboxApi('POST', '/webhooks', { colour: 'red' })).status).toBe(400);
    expect((await client.sandboxApi('POST', '/webhooks', { readRate: 0.2, maxAttempts: 0 })).status).toBe(400);
    const settings = await client.sandboxApi('GET', '/webhooks');
    expect(settings.body).toMatchObject({ url: receiver.url, appSecretConfigured: true, active: true, readRate: 1 });
    expect(JSON.stringify(settings.body)).not.toContain(APP_SECRET);
  });

  it('reset keeps the target and restores the defaults', async () => {
    client.sandbox.reset();
    expect(client.sandbox.webhooks.settings()).toMatchObject({
      url: receiver.url,
      active: true,
      sentDelayMs: 200,
      deliveredDelayMs: 1000,
      readDelayMs: 3000,
      deliveredRate: 1,
      readRate: 0.5,
      batch: true,
      recipientFailures: {},
    });
  });
});
