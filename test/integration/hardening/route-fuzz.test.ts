/**
 * Property-based fuzzing of every route in the manifest, over real HTTP through the local runtime.
 *
 * For any JSON body (any depth, any type), any extra headers, any path parameter and any mix of
 * valid, wrong and missing credentials, the service must answer with a status below 500, in its
 * surface's error shape when it refuses, and never with a stack trace or an internal name.
 * Rate-limit 429s are fine: they are one of the answers the contract allows.
 */
import fc from 'fast-check';
import { routes } from '../../../runtime-contract/all-routes';
import { isCredentialAuth, publicPath, type AuthKind, type CredentialAuthKind, type RouteDefinition } from '../../../runtime-contract/route-manifest';
import { getServices } from '../../../functions/composition';
import { startTestRuntime, type TestResponse, type TestRuntime } from '../../support/local-runtime';
import { expectSurfaceErrorShape, expectNothingInternal } from './surface-shapes';

jest.setTimeout(300_000);

/** Runs per route: enough to reach every validation branch without a long CI (72 routes). */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 12);
/** fast-check prints the seed of a failing run; FUZZ_SEED=<seed> replays it. */
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
  // The webhook endpoint answers 503 until a Meta app is configured; fuzz it as deployed.
  await getServices().metaApp.configure({ appSecret: 'fuzz-meta-app-secret', verifyToken: 'fuzz-verify-token' });
});
afterAll(async () => runtime?.close());

const credentialHeaders = (auth: AuthKind, kind: 'valid' | 'foreign' | 'junk' | 'missing'): Record<string, string> => {
  // A signed webhook's credential is a signature over its body: the fuzz sends none (→ 401/403).
  if (!isCredentialAuth(auth) || kind === 'missing') return {};
  const demo = runtime.demo;
  const secrets: Record<CredentialAuthKind, [string, string]> = {
    'broadcast-api-key': [demo.apiKey, demo.otherOrg.apiKey],
    'organization-token': [demo.orgToken, demo.otherOrg.orgToken],
    'upstream-access-token': [demo.accessToken, demo.otherOrg.accessToken],
    'v1-api-key': [demo.v1ApiKey, demo.otherOrg.v1ApiKey],
  };
  const [own, foreign] = secrets[auth];
  const secret = kind === 'valid' ? own : kind === 'foreign' ? foreign : 'junk-credential-value';
  return auth === 'broadcast-api-key' ? { 'x-api-key': secret } : { authorization: `Bearer ${secret}` };
};

/** A realistic id, a junk string, or an id of the demo tenant, for `{param}` placeholders. */
const pathParameter = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom('110000000000001', '120000000000001', '130000000000001', 'pub_0', 'ct_0', 'cv_0', '15550100001'),
    fc.string({ maxLength: 40 }),
    fc.stringMatching(/^[0-9]{1,20}$/),
  );

const fillPath = (route: RouteDefinition, values: string[]): string => {
  let index = 0;
  return publicPath(route).replace(/\{[^}]+\}/g, () => encodeURIComponent(values[index++] ?? 'x') || 'x');
};

/** JSON of any shape, a body the route's schema almost accepts, or text that is not JSON at all. */
const body = (): fc.Arbitrary<{ raw: string }> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.jsonValue({ maxDepth: 6 }).map((value) => ({ raw: JSON.stringify(value) ?? 'null' })) },
    {
      weight: 2,
      arbitrary: fc
        .record(
          {
            fromPhoneNumber: fc.oneof(fc.constant('15550100001'), fc.string(), fc.jsonValue({ maxDepth: 3 })),
            templateName: fc.oneof(fc.constant('order_update'), fc.string()),
            to: fc.oneof(fc.constant('15551234567'), fc.string(), fc.integer()),
            type: fc.constantFrom('text', 'image', 'template', 'interactive', 'bogus'),
            data: fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 3 }),
            emails: fc.array(fc.oneof(fc.emailAddress(), fc.string()), { maxLength: 3 }),
            phoneNumber: fc.oneof(fc.string(), fc.stringMatching(/^[0-9]{8,15}$/)),
          },
          { requiredKeys: [] },
        )
        .map((value) => ({ raw: JSON.stringify(value) })),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((raw) => ({ raw })) },
    {
      weight: 1,
      // Deep nesting, at the top or inside a field: must be a clear 400, never a crash.
      arbitrary: fc.record({ depth: fc.integer({ min: 65, max: 10_000 }), inField: fc.boolean() }).map(({ depth, inField }) => {
        const nested = '['.repeat(depth) + ']'.repeat(depth);
        return { raw: inField ? `{"fromPhoneNumber":${nested},"data":${nested}}` : nested };
      }),
    },
  );

const extraHeaders = (): fc.Arbitrary<Record<string, string>> =>
  fc.dictionary(
    fc.constantFrom('idempotency-key', 'content-type', 'x-forwarded-for', 'accept', 'x-amz-date', 'user-agent'),
    fc.oneof(
      fc.string({ maxLength: 60 }).filter((value) => /^[\x20-\x7e]*$/.test(value)),
      fc.constant('application/json'),
    ),
    { maxKeys: 3 },
  );

async function send(route: RouteDefinition, path: string, headers: Record<string, string>, raw: string | undefined): Promise<TestResponse> {
  const takesBody = route.method !== 'GET' && route.method !== 'HEAD' && (route.method !== 'DELETE' || route.body === 'json');
  return runtime.call(route.method, path, {
    headers: { 'content-type': 'application/json', ...headers },
    rawBody: takesBody ? raw : undefined,
  });
}

describe('every route of the manifest under random input', () => {
  it.each(routes.map((route) => [`${route.method} ${publicPath(route)}`, route] as const))(
    '%s: no 5xx, surface error shape, nothing internal',
    async (_name, route) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(pathParameter(), { minLength: 3, maxLength: 3 }),
          fc.constantFrom('valid', 'valid', 'valid', 'foreign', 'junk', 'missing') as fc.Arbitrary<'valid' | 'foreign' | 'junk' | 'missing'>,
          extraHeaders(),
          body(),
          fc.dictionary(fc.constantFrom('phone_number', 'limit', 'status', 'page', 'pageSize', 'fields', 'tag'), fc.string({ maxLength: 30 }), { maxKeys: 2 }),
          async (parameters, credential, headers, { raw }, query) => {
            const search = new URLSearchParams(query).toString();
            const path = fillPath(route, parameters) + (search ? `?${search}` : '');
            const response = await send(route, path, { ...headers, ...credentialHeaders(route.auth, credential) }, raw);
            expect(response.status).toBeLessThan(500);
            expectNothingInternal(response);
            if (response.status >= 400) expectSurfaceErrorShape(route.surface, response);
          },
        ),
        { numRuns: RUNS_PER_ROUTE, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
    },
  );
});

describe('JSON nested 10,000 levels deep', () => {
  const deep = '['.repeat(10_000) + ']'.repeat(10_000);
  const jsonRoutes = routes.filter(
    (route) => route.method !== 'GET' && route.method !== 'HEAD' && (route.method !== 'DELETE' || route.body === 'json') && (route.body ?? 'json') === 'json',
  );
  const bodies = {
    'at the top': deep,
    'inside fields': `{"messaging_product":"whatsapp","to":"15551234567","type":"text","fromPhoneNumber":"15550100001","text":${deep},"data":${deep},"emails":${deep},"template":${deep},"phoneNumber":${deep}}`,
  };

  it.each(jsonRoutes.flatMap((route) => Object.entries(bodies).map(([where, raw]) => [`${route.method} ${publicPath(route)} ${where}`, route, raw] as const)))(
    '%s: 400 before validation, in the surface shape',
    async (_name, route, raw) => {
      const own: Record<string, string> = { wabaId: runtime.demo.wabaId, phoneNumberId: runtime.demo.phoneNumberIds[0]! };
      const path = publicPath(route).replace(/\{([^}]+)\}/g, (_match, name: string) => own[name] ?? 'x');
      const response = await send(route, path, credentialHeaders(route.auth, 'valid'), raw);
      expect(response.status).toBe(400);
      expectSurfaceErrorShape(route.surface, response);
      // A route whose contract words every 400 keeps its wording; the others say what was wrong.
      const message = route.surface === 'v1' ? response.body.error.message : response.body.message;
      expect(message).toMatch(route.badRequestMessage ?? /nest/i);
    },
  );
});
