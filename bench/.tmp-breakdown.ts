import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoIds } from '../local/demo-tenant';
import { percentile } from './lib/stats';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
async function main() {
  const { startLocalRuntime } = await import('../local/local-runtime');
  const { getServices } = await import('../functions/composition');
  const runtime = await startLocalRuntime({ port: 0, dataDirectory: mkdtempSync(join(tmpdir(), 'x-')), persist: false, startWorkers: false, sandbox: { throughputPerSecond: 100_000 } });
  const demo = runtime.demo!;
  const pn = demo.phoneNumberIds[0]!;
  const token = (await getServices().tenancy.admin.issueCredential({ organizationId: demo.organizationId, kind: 'upstream-access-token' })).secret;
  const time = async (name: string, n: number, f: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 30; i++) await f(i);
    const s: number[] = [];
    for (let i = 0; i < n; i++) { const b = performance.now(); await f(i); s.push(performance.now() - b); }
    console.log(name.padEnd(28), 'p50', percentile(s, 50).toFixed(2), 'p90', percentile(s, 90).toFixed(2));
  };
  const rl = getServices().http.rateLimiter;
  await time('direct sandbox fetch', 300, async () => (await fetch(`${runtime.sandboxUrl}/v25.0/${pn}/whatsapp_business_profile`, { headers: { Authorization: `Bearer ${demoIds.upstreamToken}` } })).arrayBuffer());
  await time('gateway /health', 300, async () => (await fetch(`${runtime.baseUrl}/staging/api/v2/health`)).arrayBuffer());
  await time('rateLimiter.consume', 300, (i) => rl.consume(`bench#${i % 20}`, 1_000_000, new Date()));
  await time('getOrganization (store)', 300, () => getServices().tenancy.repository.getOrganization(demo.organizationId));
  await time('wrapped', 300, async () => (await fetch(`${runtime.baseUrl}/staging/api/v2/upstream/phone-numbers/${pn}/business-profile`, { headers: { Authorization: `Bearer ${token}` } })).arrayBuffer());
  await runtime.stop();
  process.exit(0);
}
main();
