import { startTestRuntime, eventually, type TestRuntime } from '../../support/local-runtime';

const BASE = '/prod/api/v2/broadcast/public';

describe('template broadcast end to end (smoke)', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime();
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  it('serves health without a key', async () => {
    const response = await runtime.call('GET', `${BASE}/health`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', service: expect.any(String), version: '2.0.0' });
  });

  it('lists senders and templates, sends a 1,500-recipient job and follows it to its end', async () => {
    const key = { 'x-api-key': runtime.demo.apiKey };
    const numbers = await runtime.call('GET', `${BASE}/phone-numbers`, { headers: key });
    expect(numbers.status).toBe(200);
    const from = runtime.demo.phoneNumbers[0]!;
    const templates = await runtime.call('GET', `${BASE}/templates?phone_number=${from}`, { headers: key });
    expect(templates.status).toBe(200);

    const data = Array.from({ length: 1500 }, (_, index) => ({
      countryCode: '91',
      toPhoneNumber: String(9000000000 + index),
      templateParams: [`N${index}`, `O${index}`],
    }));
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: key,
      body: { broadcastName: 'smoke', fromPhoneNumber: from, templateName: 'order_update', templateLanguage: 'en_US', templateType: 'UTILITY', data },
    });
    expect(accepted.status).toBe(202);
    const jobId = accepted.body.data.jobId;
    const final = await eventually(
      () => runtime.call('GET', `${BASE}/status/${jobId}`, { headers: key }),
      (response) => ['COMPLETED', 'COMPLETED_WITH_FAILURES', 'FAILED'].includes(response.body?.data?.status),
    );
    expect(final.body.data).toMatchObject({ status: 'COMPLETED', totalRecipients: 1500, summary: { sent: 1500, failed: 0, unknown: 0, pending: 0 } });
    expect(runtime.sandbox!.acceptedMessages()).toHaveLength(1500);
  }, 60_000);
});
