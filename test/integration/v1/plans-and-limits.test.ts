/** The generic v1 API's access rules through the local runtime: keys, plans (checked on every request), per-plan limits. */
import { v1PlanLimits } from '../../../runtime-contract/route-manifest';
import { getServices } from '../../../functions/composition';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { expectFreshBucketRetryAfter } from '../../support/rate-limit-expectations';
import { provisionV1Organization } from './v1-test-kit';

const unauthorized = { success: false, error: { code: 'UNAUTHORIZED', message: 'Missing or invalid API key' } };
const planRequired = { success: false, error: { code: 'PLAN_REQUIRED', message: 'The v1 API needs the enterprise plan or the API add-on' } };

/** Sliding windows over calendar minutes: a burst started with `seconds` left in the minute stays in it, so its Retry-After is known. */
async function awaitRoomInCurrentMinute(seconds = 15): Promise<void> {
  const left = 60 - (Date.now() % 60_000) / 1000;
  if (left < seconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 200));
}

describe('generic v1 API: keys, plans and limits', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime();
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  it.each([
    ['missing', {}],
    ['not Bearer', { authorization: 'Basic abc' }],
    ['unknown', { authorization: 'Bearer wv1_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['a broadcast key', 'broadcast'],
    ['an organization token', 'organization'],
  ])('401 UNAUTHORIZED when the key is %s', async (_case, headers) => {
    const auth =
      headers === 'broadcast'
        ? { authorization: `Bearer ${runtime.demo.apiKey}` }
        : headers === 'organization'
          ? { authorization: `Bearer ${runtime.demo.orgToken}` }
          : (headers as Record<string, string>);
    for (const [method, path] of [
      ['GET', '/v1/contacts'],
      ['POST', '/v1/conversations'],
    ] as const) {
      const response = await runtime.call(method, path, { headers: auth, body: method === 'POST' ? {} : undefined });
      expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: unauthorized });
    }
  });

  it('403 PLAN_REQUIRED on every route while the plan lacks the API, checked on every request (downgrade and upgrade)', async () => {
    const starter = await provisionV1Organization({ plan: 'starter', apiAddOn: false });
    const requests: Array<[string, string, unknown]> = [
      ['GET', '/v1/contacts', undefined],
      ['POST', '/v1/contacts', { phoneNumber: '15551234567', name: 'x' }],
      ['GET', '/v1/contacts/ct_01ARZ3NDEKTSV4RRFFQ69G5FAV', undefined],
      ['GET', '/v1/conversations', undefined],
      ['POST', '/v1/conversations', { contactId: 'ct_1', senderPhoneNumber: '15551234567' }],
      ['GET', '/v1/conversations/cv_01ARZ3NDEKTSV4RRFFQ69G5FAV', undefined],
      ['PATCH', '/v1/conversations/cv_01ARZ3NDEKTSV4RRFFQ69G5FAV', { status: 'closed' }],
    ];
    for (const [method, path, body] of requests) {
      const response = await runtime.call(method, path, { headers: starter.auth, body });
      expect({ request: `${method} ${path}`, status: response.status, body: response.body }).toEqual({
        request: `${method} ${path}`,
        status: 403,
        body: planRequired,
      });
    }
    const admin = getServices().tenancy.admin;
    await admin.setOrganizationPlan({ organizationId: starter.organizationId, plan: 'starter', apiAddOn: true });
    expect((await runtime.call('GET', '/v1/contacts', { headers: starter.auth })).status).toBe(200);
    await admin.setOrganizationPlan({ organizationId: starter.organizationId, plan: 'professional', apiAddOn: false });
    expect((await runtime.call('GET', '/v1/contacts', { headers: starter.auth })).body).toEqual(planRequired);
  });

  it('404 NOT_FOUND for a path the API does not have', async () => {
    const response = await runtime.call('GET', '/v1/messages', { headers: { authorization: `Bearer ${runtime.demo.v1ApiKey}` } });
    expect(response).toMatchObject({ status: 404, body: { success: false, error: { code: 'NOT_FOUND', message: 'Route not found' } } });
  });

  it('limits requests per minute per key by plan: the starter plan’s 61st request is a 429 with the wait; professional allows more', async () => {
    const starter = await provisionV1Organization({ plan: 'starter', apiAddOn: true });
    const professional = await provisionV1Organization({ plan: 'professional', apiAddOn: true });
    const otherStarterKey = await getServices().tenancy.admin.issueCredential({ organizationId: starter.organizationId, kind: 'v1-api-key' });
    await awaitRoomInCurrentMinute();

    const burst = async (auth: { authorization: string }, count: number) => {
      const statuses: number[] = [];
      // Alternate routes: the limit is per key over the whole API.
      for (let index = 0; index < count; index += 1) {
        statuses.push((await runtime.call('GET', index % 2 === 0 ? '/v1/contacts' : '/v1/conversations', { headers: auth })).status);
      }
      return statuses;
    };
    expect(await burst(starter.auth, v1PlanLimits.starter)).toEqual(Array(v1PlanLimits.starter).fill(200));
    const sentAt = Date.now();
    const limited = await runtime.call('GET', '/v1/contacts', { headers: starter.auth });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expectFreshBucketRetryAfter(retryAfter, v1PlanLimits.starter, sentAt);
    expect(limited.body).toEqual({
      success: false,
      error: { code: 'RATE_LIMITED', message: `Rate limit of 60 requests per minute exceeded; retry after ${retryAfter} seconds` },
      retryAfterSeconds: retryAfter,
    });
    // Per key: another key of the same organization has its own minute.
    expect((await runtime.call('GET', '/v1/contacts', { headers: { authorization: `Bearer ${otherStarterKey.secret}` } })).status).toBe(200);
    // The professional plan is not stopped at 61.
    expect(await burst(professional.auth, v1PlanLimits.starter + 1)).toEqual(Array(v1PlanLimits.starter + 1).fill(200));
  }, 45_000);
});
