/**
 * POST /broadcast/public/generate-key (no key): a broadcast key bound to an onboarded sender,
 * shown once and stored only as a hash (docs/FREEFORM-AND-EARLIER.md).
 *
 * The route is limited to 5 requests a minute per source IP (every request whose body parses as JSON counts, valid or not).
 * All requests of this file come from 127.0.0.1, so the file runs its requests inside one
 * calendar minute (headroom taken before the first) and counts them per minute: the last test sends
 * what the sliding window still admits and then one more.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { getServices } from '../../../functions/composition';
import { hashSecret } from '../../../shared/crypto/secret-generator';
import { createTenancyTestKit } from '../../support/tenancy-test-ports';
import { eventually, startTestRuntime, type TestResponse, type TestRuntime } from '../../support/local-runtime';
import { DEMO, keyHeader, kitEnvironment, sleep } from '../broadcast/broadcast-test-kit';
import { OUTSIDE_SCOPE, PUBLIC_PATH, expectFailureBody, provisionOrganization } from './earlier-operations-kit';
import { admits } from '../../../shared/rate-limiting/sliding-window';
import { retryAfterBounds } from '../../support/rate-limit-expectations';

const LIMIT_PER_MINUTE = 5;

/** Waits below (eventually, minute headroom) outlast jest's 5 s default. */
jest.setTimeout(30_000);
const minuteOf = (ms: number) => Math.floor(ms / 60_000);

describe('POST /broadcast/public/generate-key', () => {
  let runtime: TestRuntime;
  /** Requests made in the current window (the minute of `windowMinute`) and in the minute before it. */
  let calls = 0;
  let previousCalls = 0;
  let windowMinute = -1;
  const rollWindow = (minute: number) => {
    if (minute === windowMinute) return;
    previousCalls = minute === windowMinute + 1 ? calls : 0;
    [windowMinute, calls] = [minute, 0];
  };

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    // Room for the whole file in one fixed window.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 15_000) await sleep(left + 250);
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const generate = async (body: unknown): Promise<TestResponse> => {
    rollWindow(minuteOf(Date.now()));
    calls += 1;
    return runtime.call('POST', `${PUBLIC_PATH}/generate-key`, { body });
  };
  const notConnected = (phoneNumber: string) => `Phone number ${phoneNumber} was not found or is not connected to an active business account`;

  it('issues a key bound to the sender: it works on send-single for that number, not on send-freeform, and is stored only as its hash', async () => {
    const response = await generate({ phoneNumber: DEMO.sender2 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: true,
      status_code: 200,
      message: 'API key generated; store it now, it is not shown again',
      data: { apiKey: expect.stringMatching(/^wbk_[A-Za-z0-9_-]{43}$/) },
    });
    const apiKey: string = response.body.data.apiKey;

    // send-single (not gateway-keyed): sends from the bound number.
    const single = await runtime.call('POST', `${PUBLIC_PATH}/send-single`, {
      headers: keyHeader(apiKey),
      body: {
        templateName: 'order_update',
        templateLanguage: 'en_US',
        templateType: 'UTILITY',
        countryCode: '44',
        toPhoneNumber: '7700900555',
        templateParams: ['Ada', 'A-1'],
      },
    });
    expect(single.status).toBe(200);
    expect(single.body.data).toMatchObject({ status: true, data: { total_contacts: 1, failed_contacts: 0, estimated_cost: 0.022 } });
    const [message] = await eventually(
      () => Promise.resolve(runtime.sandbox!.acceptedMessages().filter((accepted) => accepted.recipient === '447700900555')),
      (messages) => messages.length > 0,
      20_000,
    );
    expect(message!.phoneNumberId).toBe(DEMO.phoneNumberId2);

    // send-freeform is outside a minted key's scope, even from its own number (403, the surface's failure body).
    const freeform = await runtime.call('POST', `${PUBLIC_PATH}/send-freeform`, {
      headers: keyHeader(apiKey),
      body: { fromPhoneNumber: DEMO.sender2, toPhoneNumber: '447700900556', type: 'text', text: 'Hi' },
    });
    expectFailureBody(freeform, 403, `${OUTSIDE_SCOPE}send-freeform`, '/send-freeform');
    expect(freeform.body.data.error.code).toBe('OUTSIDE_KEY_SCOPE');

    // Stored only as a hash: the plaintext appears in no item of the tenancy table; its SHA-256 does.
    const services = getServices();
    const items: Array<Record<string, unknown>> = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await services.clients.dynamoDb.send(new ScanCommand({ TableName: services.config.tableNames.tenancy, ExclusiveStartKey: startKey }));
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    expect(items.length).toBeGreaterThan(10);
    const serialized = items.map((item) => JSON.stringify(item));
    expect(serialized.filter((text) => text.includes(apiKey))).toEqual([]);
    expect(serialized.filter((text) => text.includes(apiKey.slice(4)))).toEqual([]);
    const hashed = items.filter((item) => JSON.stringify(item).includes(hashSecret(apiKey)));
    expect(hashed.length).toBeGreaterThan(0);
    expect(hashed.some((item) => item.boundPhoneNumber === DEMO.sender2 && item.organizationId === runtime.demo.organizationId)).toBe(true);
  });

  it('answers 400 in the contract’s failure body for a number that is not onboarded', async () => {
    const response = await generate({ phoneNumber: '15559999999' });
    expectFailureBody(response, 400, notConnected('15559999999'), '/generate-key');
    expect(response.body.data.error.code).toBe('SENDER_NOT_CONNECTED');
  });

  it('answers 400 for a number whose business account is not active (needs authorization again)', async () => {
    const org = await provisionOrganization(runtime, { name: 'Expired Token', walletMicros: 0, keyGeneration: true });
    const tenancy = getServices().tenancy;
    const account = await tenancy.repository.getBusinessAccount(org.organizationId, org.wabaId);
    await tenancy.markBusinessAccountNeedsAuthorization(account!);
    expect((await tenancy.repository.getBusinessAccount(org.organizationId, org.wabaId))!.status).not.toBe('active');
    const credentialsBefore = (await tenancy.repository.listCredentials(org.organizationId)).length;

    const response = await generate({ phoneNumber: org.phoneNumber });
    expectFailureBody(response, 400, notConnected(org.phoneNumber), '/generate-key');
    expect((await tenancy.repository.listCredentials(org.organizationId)).length).toBe(credentialsBefore);
  });

  it.each([
    ['with +', `+${DEMO.sender1}`, 'phoneNumber must contain digits only (no +, spaces or punctuation)'],
    ['too short', '1555010', 'phoneNumber must have at least 8 digits'],
  ])('answers 400 for a malformed number (%s), naming the field and the rule', async (_name, phoneNumber, message) => {
    const response = await generate({ phoneNumber });
    expectFailureBody(response, 400, message, '/generate-key');
    expect(response.body.data.error.code).toBe('VALIDATION_FAILED');
  });

  it(`allows ${LIMIT_PER_MINUTE} requests a minute per source IP; the 6th is 429 with Retry-After and issues nothing`, async () => {
    // Normally the tests above made 5 requests in this window already; run alone, this tops it up.
    if (60_000 - (Date.now() % 60_000) < 10_000) await sleep(60_000 - (Date.now() % 60_000) + 250);
    rollWindow(minuteOf(Date.now()));
    while (admits(LIMIT_PER_MINUTE, { previous: previousCalls, current: calls }, Date.now())) {
      expect((await generate({ phoneNumber: '15559999998' })).status).toBe(400);
    }
    const counts = { previous: previousCalls, current: calls };

    const tenancy = getServices().tenancy;
    const credentialsBefore = (await tenancy.repository.listCredentials(runtime.demo.organizationId)).length;
    const sentAt = Date.now();
    const refused = await generate({ phoneNumber: DEMO.sender1 });
    expect(minuteOf(Date.now())).toBe(windowMinute);
    const retryAfter = Number(refused.headers.get('retry-after'));
    const { min, max } = retryAfterBounds(LIMIT_PER_MINUTE, counts, sentAt);
    expect(retryAfter).toBeGreaterThanOrEqual(min);
    expect(retryAfter).toBeLessThanOrEqual(max);
    expectFailureBody(refused, 429, `Rate limit of ${LIMIT_PER_MINUTE} requests per minute exceeded; retry after ${retryAfter} seconds`, '/generate-key');
    expect(refused.body).toMatchObject({ retryAfterSeconds: retryAfter, data: { error: { code: 'RATE_LIMITED', retryAfterSeconds: retryAfter } } });
    expect((await tenancy.repository.listCredentials(runtime.demo.organizationId)).length).toBe(credentialsBefore);
  }, 45_000);

  it('registers the issued key in the broadcast usage plan (the API Gateway key registry on AWS)', async () => {
    // The same use case with a recording registry in place of API Gateway (no AWS here).
    const kit = createTenancyTestKit();
    const { organizationId } = await kit.services.admin.createOrganization({ name: 'Usage Plan', plan: 'enterprise' });
    await kit.services.admin.connectBusinessAccount({
      organizationId,
      wabaId: '110000000000501',
      businessId: '110000000000500',
      name: 'Usage Plan',
      accessToken: 'token',
    });
    await kit.services.admin.addPhoneNumber({ organizationId, wabaId: '110000000000501', digits: '15550500001', phoneNumberId: '120000000000501' });
    await kit.services.admin.setKeyGeneration({ organizationId, enabled: true });
    const issued = await kit.services.issueBroadcastKeyForPhoneNumber({ phoneNumber: '15550500001' });
    expect(kit.registry.registered).toEqual([
      { credentialId: issued.credential.credentialId, organizationId, plaintextKey: issued.secret, origin: 'generate-key', gatewayApiKeyId: 'gw-1' },
    ]);
    expect(issued.credential).toMatchObject({ boundPhoneNumber: '15550500001', kind: 'broadcast-api-key' });
  });
});
