/**
 * The harness's execution environment: exactly the given environment, and the function's Timeout
 * enforced by tearing the environment down (the next invocation is a cold start).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeployedFunction } from './harness/deployed-model';
import { FunctionHost } from './harness/function-host';

let assetDirectory: string;
let host: FunctionHost;

beforeAll(() => {
  assetDirectory = mkdtempSync(join(tmpdir(), 'deployed-host-'));
  writeFileSync(
    join(assetDirectory, 'index.mjs'),
    `const startedAt = Date.now();
export const handler = async (event) => {
  if (event.hang) await new Promise(() => setInterval(() => undefined, 1000));
  return { startedAt, tableName: process.env.TENANCY_TABLE ?? null, path: process.env.PATH ?? null };
};`,
  );
  const fn: DeployedFunction = {
    name: 'probe',
    physicalName: 'Stack-probe',
    key: 'Stack/Probe',
    assetDirectory,
    handler: 'index.handler',
    timeoutSeconds: 1,
    memoryMb: 128,
    environment: {},
    statements: [],
  };
  host = new FunctionHost(fn, { TENANCY_TABLE: 'TenancyTable0F0090A5' });
});
afterAll(async () => {
  await host.stop();
  rmSync(assetDirectory, { recursive: true, force: true });
});

it('sees only the environment it was given', async () => {
  await expect(host.invoke({})).resolves.toMatchObject({ tableName: 'TenancyTable0F0090A5', path: null });
});

it('a run past the Timeout fails as Lambda reports it, and the next invocation gets a fresh environment', async () => {
  const before = (await host.invoke({})) as { startedAt: number };
  await expect(host.invoke({ hang: true })).rejects.toThrow('probe: Sandbox.Timedout: Task timed out after 1.00 seconds');
  const after = (await host.invoke({})) as { startedAt: number };
  expect(after.startedAt).toBeGreaterThan(before.startedAt);
});
