/**
 * A broadcast to a business-scoped user id through the local runtime and the Cloud API sandbox
 * (docs/BROADCAST.md "Recipients by business-scoped user id"): the worker sends Meta's `recipient`
 * (no `to`), the recipients list shows the row by `userId` with empty number fields, and an
 * AUTHENTICATION-free template reaches a user the sandbox knows only by BSUID.
 *
 * Needs the sandbox's BSUID users (`POST /_sandbox/users`, sends by `recipient`: issue 25's sandbox
 * item); before that the sandbox refuses a send without `to`, and the unit suite
 * (test/unit/broadcast/bsuid-recipients.test.ts) holds the body the worker sends.
 */
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, issueKey, keyHeader, kitEnvironment, latestJobId, orderUpdate, recipients, waitForTerminal } from './broadcast-test-kit';
import { demoIds } from '../../../local/demo-tenant';

jest.setTimeout(120_000);

describe('broadcast recipients by business-scoped user id', () => {
  let runtime: TestRuntime;
  let organizationId: string;
  let key: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    organizationId = runtime.demo.organizationId;
    key = (await issueKey(organizationId)).secret;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  /** A user the sandbox knows only by username: Meta withholds the number, the portfolio sees a BSUID. */
  async function phonelessUser(username: string): Promise<string> {
    const response = await fetch(`${runtime.sandboxUrl}/_sandbox/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ businessId: demoIds.businessId, username, country: 'US' }),
    });
    expect(response.status).toBe(200);
    const user = (await response.json()) as { userId?: string; data?: { userId?: string } };
    const userId = user.userId ?? user.data?.userId;
    expect(userId).toMatch(/^US\./);
    return userId!;
  }

  it('sends to a BSUID with `recipient`, beside a number sent with `to`, and lists it by userId', async () => {
    const userId = await phonelessUser('ana.bsuid');
    const [byNumber] = recipients(1, { first: 9_500_000_000 });
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: keyHeader(key),
      body: orderUpdate([byNumber!, { userId, templateParams: ['Ana', 'ORD-B1'] } as never]),
    });
    expect(accepted.status).toBe(200);
    const jobId = accepted.headers.get('x-broadcast-job-id')!;
    await waitForTerminal(organizationId, jobId, 60_000);

    const sentToUser = runtime.sandbox!.acceptedMessages().filter((message) => (message.body as { recipient?: string }).recipient === userId);
    expect(sentToUser).toHaveLength(1);
    expect(sentToUser[0]!.body).not.toHaveProperty('to');
    expect(sentToUser[0]!.body).toMatchObject({ recipient_type: 'individual', type: 'template', template: { name: 'order_update' } });

    const rows = await runtime.call('GET', `${BASE}/broadcasts/${jobId}/recipients`, { headers: keyHeader(key) });
    expect(rows.status).toBe(200);
    expect(rows.body.data.recipients).toEqual([
      expect.objectContaining({ countryCode: '91', toPhoneNumber: byNumber!.toPhoneNumber, status: expect.not.stringMatching(/FAILED|UNKNOWN/) }),
      expect.objectContaining({ countryCode: '', toPhoneNumber: '', userId, status: expect.not.stringMatching(/FAILED|UNKNOWN/) }),
    ]);
    expect(rows.body.data.recipients[0]).not.toHaveProperty('userId');
  });

  it('sends a free-form message to toUserId with `recipient`', async () => {
    const userId = await phonelessUser('bo.freeform');
    const response = await runtime.call('POST', `${BASE}/send-freeform`, {
      headers: keyHeader(key),
      body: { fromPhoneNumber: demoIds.senders[0], toUserId: userId, type: 'text', text: 'Hello' },
    });
    expect(response.status).toBe(200);
    const jobId = response.headers.get('x-broadcast-job-id')!;
    await waitForTerminal(organizationId, jobId, 60_000);
    const sent = runtime.sandbox!.acceptedMessages().filter((message) => (message.body as { recipient?: string }).recipient === userId);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ recipient: userId, type: 'text', text: { body: 'Hello' } });
    expect(sent[0]!.body).not.toHaveProperty('to');
  });

  it('refuses both addresses in one recipient, naming data[i]', async () => {
    const response = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: keyHeader(key),
      body: orderUpdate([
        ...recipients(1, { first: 9_500_000_100 }),
        { countryCode: '91', toPhoneNumber: '9500000101', userId: 'US.1', templateParams: ['a', 'b'] } as never,
      ]),
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('data[1] must give either countryCode and toPhoneNumber, or userId (not both)');
  });

  describe('the earlier send-bulk', () => {
    const bulk = (data: unknown[]) =>
      runtime.call('POST', `${BASE}/send-bulk`, {
        headers: keyHeader(key),
        body: {
          templateName: 'order_update',
          templateLanguage: 'en_US',
          templateType: 'UTILITY',
          broadcastName: `bulk by user id ${Date.now()}`,
          globalTemplateParams: ['Bo', 'B-1'],
          data,
        },
      });

    it('takes a per-recipient userId beside numbers: sent with `recipient`, listed by userId', async () => {
      const userId = await phonelessUser('bo.bulk');
      const response = await bulk([
        { countryCode: '91', toPhoneNumber: '9500000200' },
        { userId, templateParams: ['Bo', 'B-2'] },
      ]);
      expect(response.status).toBe(200);
      expect(response.body.data.data).toMatchObject({ total_contacts: 2, failed_contacts: 0 });

      const [sent] = await eventually(
        () => Promise.resolve(runtime.sandbox!.acceptedMessages().filter((message) => (message.body as { recipient?: string }).recipient === userId)),
        (messages) => messages.length === 1,
        30_000,
      );
      expect(sent!.body).not.toHaveProperty('to');
      expect(sent!.body).toMatchObject({ type: 'template', template: { name: 'order_update' } });

      const jobId = await latestJobId(organizationId);
      await waitForTerminal(organizationId, jobId, 60_000);
      const rows = await runtime.call('GET', `${BASE}/broadcasts/${jobId}/recipients`, { headers: keyHeader(key) });
      expect(rows.body.data.recipients).toEqual([
        expect.objectContaining({ countryCode: '91', toPhoneNumber: '9500000200' }),
        expect.objectContaining({ countryCode: '', toPhoneNumber: '', userId, status: expect.not.stringMatching(/FAILED|UNKNOWN/) }),
      ]);
    });

    it('refuses a recipient with both addresses, or with neither, naming data[i] and the field', async () => {
      const both = await bulk([{ countryCode: '91', toPhoneNumber: '9500000201', userId: 'US.13491208655302741918' }]);
      expect([both.status, both.body.message]).toEqual([400, 'data[0].userId must not be given with countryCode or toPhoneNumber']);
      const neither = await bulk([{ templateParams: ['a', 'b'] }]);
      expect(neither.status).toBe(400);
      expect(neither.body.message).toContain('is required (or userId)');
    });
  });
});
