/**
 * Template pacing (sends answered `held_for_quality_assessment`, statuses after the hold, failed
 * 132015 when the template is paused meanwhile) and the template quality and category webhooks.
 */
import { createHmac } from 'node:crypto';
import { useSandbox } from '../../support/use-sandbox';
import { fixtureAccounts, templateMessage, WABA_ID } from './sandbox-test-helpers';
import { Receiver } from './webhook-receiver';

const APP_SECRET = 'pacing-secret';
const ORDER_UPDATE = '3000001';
const receiver = new Receiver();
const client = useSandbox({ accounts: fixtureAccounts() });

beforeAll(() => receiver.start());
afterAll(() => receiver.stop());
beforeEach(async () => {
  await client.sandboxApi('POST', '/webhooks/drain');
  client.sandbox.reset();
  // Registering again restores the templates' status, quality and category.
  for (const account of fixtureAccounts()) client.sandbox.registerBusinessAccount(account);
  receiver.clear();
  const fast = { sentDelayMs: 0, deliveredDelayMs: 10, readDelayMs: 20, readRate: 0, deliveredRate: 1, concurrency: 1, batch: false };
  expect((await client.sandboxApi('POST', '/webhooks', { url: receiver.url, appSecret: APP_SECRET, ...fast })).status).toBe(200);
});

async function drain(): Promise<void> {
  expect((await client.sandboxApi('POST', '/webhooks/drain')).status).toBe(200);
}

function changes(): any[] {
  return receiver.received.flatMap((post) => post.body.entry.flatMap((entry: any) => entry.changes));
}

const send = () => client.send(templateMessage('order_update', 'en_US', ['Ann', '42']));

describe('template pacing', () => {
  it('answers held_for_quality_assessment and reports the statuses only after the hold', async () => {
    const paced = await client.sandboxApi('POST', `/templates/${ORDER_UPDATE}/pacing`, { holdMs: 150 });
    expect(paced.body).toEqual({ id: ORDER_UPDATE, pacing: { holdMs: 150 } });
    const started = Date.now();
    const sent = await send();
    expect(sent.body.messages[0].message_status).toBe('held_for_quality_assessment');
    await drain();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    const statuses = changes().flatMap((change) => change.value.statuses);
    expect(statuses.map((status: any) => status.status)).toEqual(['sent', 'delivered']);
    expect(Number(statuses[0].timestamp)).toBeGreaterThanOrEqual(Math.floor((started + 150) / 1000) - 1);
  });

  it('fails held sends with 132015 when the template is paused during the hold', async () => {
    await client.sandboxApi('POST', `/templates/${ORDER_UPDATE}/pacing`, { holdMs: 200 });
    expect((await send()).status).toBe(200);
    await client.sandboxApi('POST', '/webhooks/template-status', { name: 'order_update', language: 'en_US', status: 'PAUSED' });
    await drain();
    const statuses = changes().flatMap((change) => change.value.statuses ?? []);
    expect(statuses).toHaveLength(1);
    expect(statuses[0]).toMatchObject({ status: 'failed', errors: [{ code: 132015 }] });
  });

  it('ends with DELETE or a reset; validates holdMs and the template id', async () => {
    await client.sandboxApi('POST', `/templates/${ORDER_UPDATE}/pacing`, {});
    expect((await client.sandboxApi('DELETE', `/templates/${ORDER_UPDATE}/pacing`)).body).toEqual({ id: ORDER_UPDATE, pacing: null });
    expect((await send()).body.messages[0].message_status).toBe('accepted');
    await client.sandboxApi('POST', `/templates/${ORDER_UPDATE}/pacing`, { holdMs: 10 });
    client.sandbox.reset();
    expect((await send()).body.messages[0].message_status).toBe('accepted');
    expect((await client.sandboxApi('POST', `/templates/${ORDER_UPDATE}/pacing`, { holdMs: -1 })).status).toBe(400);
    expect((await client.sandboxApi('POST', '/templates/999/pacing', {})).status).toBe(404);
  });
});

describe('template events', () => {
  it('posts message_template_quality_update, signed, and Graph reports the new quality score', async () => {
    const changed = await client.sandboxApi('POST', '/webhooks/template-quality', { name: 'order_update', language: 'en_US', quality: 'YELLOW' });
    expect(changed.body).toEqual({ id: ORDER_UPDATE, previousQuality: 'UNKNOWN', quality: 'YELLOW', notified: true });
    await drain();
    const post = receiver.received[0]!;
    expect(post.signature).toBe(`sha256=${createHmac('sha256', APP_SECRET).update(post.raw).digest('hex')}`);
    expect(post.body.entry[0]).toMatchObject({ id: WABA_ID, time: expect.any(Number) });
    expect(post.body.entry[0].changes).toEqual([
      {
        field: 'message_template_quality_update',
        value: {
          previous_quality_score: 'UNKNOWN',
          new_quality_score: 'YELLOW',
          message_template_id: 3000001,
          message_template_name: 'order_update',
          message_template_language: 'en_US',
        },
      },
    ]);
    const read = await client.graph('GET', `/${ORDER_UPDATE}?fields=quality_score`);
    expect(read.body.quality_score.score).toBe('YELLOW');
    expect((await client.sandboxApi('POST', '/webhooks/template-quality', { name: 'order_update', language: 'en_US', quality: 'BLUE' })).status).toBe(400);
  });

  it('posts template_category_update: impending changes nothing, completed changes the category', async () => {
    const impending = await client.sandboxApi('POST', '/webhooks/template-category', {
      name: 'order_update',
      language: 'en_US',
      category: 'MARKETING',
      stage: 'impending',
      effectiveAt: 1767225600,
    });
    expect(impending.body).toMatchObject({ stage: 'impending', notified: true });
    await client.sandboxApi('POST', '/webhooks/template-category', { name: 'order_update', language: 'en_US', category: 'MARKETING' });
    await drain();
    const ids = { message_template_id: 3000001, message_template_name: 'order_update', message_template_language: 'en_US' };
    expect(changes()).toEqual([
      { field: 'template_category_update', value: { ...ids, correct_category: 'MARKETING', new_category: 'UTILITY', category_update_timestamp: 1767225600 } },
      { field: 'template_category_update', value: { ...ids, previous_category: 'UTILITY', new_category: 'MARKETING' } },
    ]);
    const read = await client.graph('GET', `/${ORDER_UPDATE}?fields=category`);
    expect(read.body.category).toBe('MARKETING');
  });

  it('changes the template even while webhooks are off, and says nothing was posted', async () => {
    await client.sandboxApi('POST', '/webhooks', { enabled: false });
    const changed = await client.sandboxApi('POST', '/webhooks/template-quality', { name: 'order_update', language: 'en_US', quality: 'RED' });
    expect(changed.body.notified).toBe(false);
    expect((await client.sandboxApi('POST', '/webhooks/template-category', { name: 'nope', language: 'en_US', category: 'MARKETING' })).status).toBe(404);
  });
});
