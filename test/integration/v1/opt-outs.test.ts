/**
 * Opt-outs through the local runtime (docs/ORGANIZATIONS-AND-V1.md "Opt-outs"):
 * - POST / GET / DELETE /v1/opt-outs with the v1 envelope and errors;
 * - a template broadcast and a send-bulk to an opted-out number: that recipient is FAILED OPTED_OUT in
 *   the recipients list, the sandbox receives nothing for it, and send-bulk does not charge it;
 * - an inbound "STOP" through the delivery processor's inbound sink adds the sender, "START" removes it.
 */
import { getServices } from '../../../functions/composition';
import { createCompositionContext } from '../../../functions/composition/composition-context';
import { inboundMessageSinkSection } from '../../../functions/composition/delivery-sinks.section';
import { dynamoDbClients } from '../../../functions/composition/dynamodb-clients';
import { tenancyReaderSection } from '../../../functions/composition/tenancy.section';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment, latestJobId, orderUpdate, recipients, waitForTerminal } from '../broadcast/broadcast-test-kit';
import { PRICE_MICROS, walletMicros } from '../earlier-operations/earlier-operations-kit';

jest.setTimeout(60_000);

describe('opt-outs through the local runtime', () => {
  let runtime: TestRuntime;
  let organizationId: string;
  let v1Auth: { authorization: string };

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    organizationId = runtime.demo.organizationId;
    v1Auth = { authorization: `Bearer ${runtime.demo.v1ApiKey}` };
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const v1 = (method: string, path: string, body?: unknown) => runtime.call(method, `/v1${path}`, { headers: v1Auth, ...(body === undefined ? {} : { body }) });
  const listed = async () => ((await v1('GET', '/opt-outs?pageSize=100')).body.data as Array<{ phoneNumber: string }>).map((entry) => entry.phoneNumber);
  const acceptedTo = (to: string) => runtime.sandbox!.acceptedMessages().filter((message) => message.recipient === to);

  it('POST adds (201, a repeat 200 with the first entry), GET lists, DELETE removes (204, then 404)', async () => {
    const created = await v1('POST', '/opt-outs', { phoneNumber: '447700900501' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      data: { phoneNumber: '447700900501', source: 'api', createdAt: expect.any(String) },
      meta: { page: 1, total: 1 },
    });
    const again = await v1('POST', '/opt-outs', { phoneNumber: '447700900501' });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(created.body.data);

    const list = await v1('GET', '/opt-outs?page=1&pageSize=10');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ success: true, meta: { page: 1, pageSize: 10, total: 1 }, data: [{ phoneNumber: '447700900501', source: 'api' }] });

    const removed = await v1('DELETE', '/opt-outs/447700900501');
    expect(removed.status).toBe(204);
    const missing = await v1('DELETE', '/opt-outs/447700900501');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, error: { code: 'OPT_OUT_NOT_FOUND' } });
    expect(await listed()).toEqual([]);
  });

  it('refuses a malformed number with 400 naming the field, in the body and in the path', async () => {
    const bad = await v1('POST', '/opt-outs', { phoneNumber: '+44 7700 900501' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('phoneNumber') } });
    const extra = await v1('POST', '/opt-outs', { phoneNumber: '447700900501', source: 'keyword' });
    expect(extra.status).toBe(400);
    const badPath = await v1('DELETE', '/opt-outs/12');
    expect(badPath.status).toBe(400);
    expect(badPath.body.error.message).toContain('phoneNumber');
  });

  it('a template broadcast skips an opted-out recipient: FAILED OPTED_OUT in the recipients list, nothing sent to it', async () => {
    const data = recipients(3, { first: 9_300_000_000 });
    const optedOut = `91${data[1]!.toPhoneNumber}`;
    expect((await v1('POST', '/opt-outs', { phoneNumber: optedOut })).status).toBe(201);

    const key = (await issueKey(organizationId)).secret;
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key), body: orderUpdate(data) });
    // Up to the synchronous threshold the contract answers 200 (queued); the job id is in the header.
    expect(accepted.status).toBe(200);
    const jobId = accepted.headers.get('x-broadcast-job-id')!;
    await waitForTerminal(organizationId, jobId, 40_000);

    const rows = (await runtime.call('GET', `${BASE}/broadcasts/${jobId}/recipients?limit=10`, { headers: keyHeader(key) })).body.data.recipients as Array<
      Record<string, unknown>
    >;
    expect(rows.map((row) => [row.toPhoneNumber, row.status, row.failureReasonCode])).toEqual([
      [data[0]!.toPhoneNumber, expect.stringMatching(/^(SENT|DELIVERED|READ)$/), null],
      [data[1]!.toPhoneNumber, 'FAILED', 'OPTED_OUT'],
      [data[2]!.toPhoneNumber, expect.stringMatching(/^(SENT|DELIVERED|READ)$/), null],
    ]);
    expect(acceptedTo(`91${data[0]!.toPhoneNumber}`)).toHaveLength(1);
    expect(acceptedTo(optedOut)).toHaveLength(0);
  });

  it('send-bulk counts an opted-out recipient in failed_contacts and does not charge it', async () => {
    const [kept, optedOut] = recipients(2, { first: 9_310_000_000 });
    await v1('POST', '/opt-outs', { phoneNumber: `91${optedOut!.toPhoneNumber}` });
    const before = await walletMicros(organizationId);
    const key = (await issueKey(organizationId, DEMO.sender1)).secret;
    const response = await runtime.call('POST', `${BASE}/send-bulk`, {
      headers: keyHeader(key),
      body: {
        broadcastName: `opt-out bulk ${Date.now()}`,
        templateName: 'order_update',
        templateLanguage: 'en_US',
        templateType: 'UTILITY',
        globalTemplateParams: ['A', 'B'],
        data: [kept, optedOut],
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.data).toMatchObject({ total_contacts: 2, failed_contacts: 1, estimated_cost: PRICE_MICROS.utility['91'] / 1_000_000 });
    expect(await walletMicros(organizationId)).toBe(before - PRICE_MICROS.utility['91']);
    const jobId = await latestJobId(organizationId);
    await waitForTerminal(organizationId, jobId, 40_000);
    await eventually(
      () => Promise.resolve(acceptedTo(`91${kept!.toPhoneNumber}`)),
      (messages) => messages.length === 1,
      20_000,
    );
    expect(acceptedTo(`91${optedOut!.toPhoneNumber}`)).toHaveLength(0);
  });

  it('an inbound "STOP" through the inbound sink adds the sender; "start" removes it', async () => {
    const context = createCompositionContext(getServices().config);
    const dynamoDb = dynamoDbClients(context);
    const sink = inboundMessageSinkSection(context, dynamoDb, tenancyReaderSection(context, dynamoDb))();
    const inbound = (text: string, at: Date) => ({
      messageId: `wamid.${Math.random().toString(36).slice(2)}`,
      from: '447700900777',
      timestamp: at,
      type: 'text',
      text,
      phoneNumberId: DEMO.phoneNumberId1,
      businessPhoneNumber: DEMO.sender1,
    });
    const now = Math.floor(Date.now() / 1000) * 1000;
    await sink.recordInbound(organizationId, inbound(' Stop ', new Date(now - 60_000)));
    const list = await v1('GET', '/opt-outs?pageSize=100');
    expect(list.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ phoneNumber: '447700900777', source: 'keyword' })]));
    await sink.recordInbound(organizationId, inbound('START', new Date(now)));
    expect(await listed()).not.toContain('447700900777');
  });
});
