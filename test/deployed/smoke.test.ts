/**
 * The smoke suite of every surface through the synthesized assembly (docs/TESTING.md "Proven as
 * deployed"): bundled assets, template environments, template tables/queues/gateway, and every
 * AWS call each function makes checked against its role policy.
 */
import { assemblyDirectory } from './harness/assembly-location';
import { readCloudAssembly } from './harness/cloud-assembly';
import { startDeployedRuntime, type DeployedRuntime } from './harness/deployed-runtime';

jest.setTimeout(180_000);

const BASE = '/prod/api/v2/broadcast/public';
let runtime: DeployedRuntime;

async function call(method: string, path: string, options: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {}) {
  const response = await fetch(`${runtime.baseUrl}${path}`, {
    method,
    headers: { ...(options.body !== undefined || options.rawBody !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body };
}

beforeAll(async () => {
  runtime = await startDeployedRuntime({ assembly: readCloudAssembly(assemblyDirectory) });
}, 120_000);
afterAll(async () => {
  await runtime?.stop();
});

it('serves health from the bundled health function', async () => {
  const response = await call('GET', `${BASE}/health`);
  expect(response.status).toBe(200);
  expect(response.body).toMatchObject({ status: 'ok', version: '2.0.0' });
});

it('lists phone numbers with the seeded key registered in the usage plan', async () => {
  const response = await call('GET', `${BASE}/phone-numbers`, { headers: { 'x-api-key': runtime.demo.apiKey } });
  expect(response.status).toBe(200);
  const refused = await call('GET', `${BASE}/phone-numbers`, { headers: { 'x-api-key': 'bk_unknown' } });
  expect(refused.status).toBe(401);
});

it('every AWS call of every function is allowed by its role policy', () => {
  expect(runtime.ledger.calls.length).toBeGreaterThan(0);
  expect(runtime.ledger.describeViolations()).toEqual([]);
});
