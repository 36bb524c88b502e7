/**
 * The demo tenant on boot: its business accounts in the sandbox, then seeded on first boot or read
 * back from `demo.json` when the data persisted, and its Meta app configured on every boot. Also
 * the two files the runtime leaves for users and scripts: `demo.json` and `runtime.env`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Services } from '../functions/composition';
import type { CloudApiSandbox } from '../sandbox/cloud-api-sandbox';
import { demoSandboxAccounts, generateDemoMetaApp, isDemoSeeded, seedDemoTenant, type DemoTenant } from './demo-seed';
import { demoSignInOf, ensureDemoAccounts, seedDemoPeople, type DemoIdentity, type DemoSignIn } from './demo-people';

export const demoFileOf = (dataDirectory: string): string => join(dataDirectory, 'demo.json');

/**
 * The demo tenant, seeded or read back; undefined when seeding is off (the sandbox still knows the demo accounts).
 *
 * @example
 * const demo = await bootDemoTenant({ services, sandbox, dataDirectory: '.local', persist: true, seed: true, identity });
 */
export async function bootDemoTenant(options: {
  services: Services;
  sandbox: CloudApiSandbox | undefined;
  dataDirectory: string;
  persist: boolean;
  seed: boolean;
  /** The local identity provider: the demo people get accounts there (docs/PEOPLE.md "Locally"). */
  identity: DemoIdentity;
}): Promise<(DemoTenant & DemoSignIn) | undefined> {
  const { services, sandbox } = options;
  if (sandbox) for (const account of demoSandboxAccounts()) sandbox.registerBusinessAccount(account);
  if (!options.seed) return undefined;
  const demoFile = demoFileOf(options.dataDirectory);
  let demo: DemoTenant;
  let peopleSeeded = false;
  if (options.persist && existsSync(demoFile) && (await isDemoSeeded(services))) {
    const saved = JSON.parse(readFileSync(demoFile, 'utf8')) as Partial<DemoTenant & DemoSignIn> & Omit<DemoTenant, 'metaAppSecret' | 'webhookVerifyToken'>;
    // A demo.json written before the Meta app settings existed gets them now, once.
    demo = saved.metaAppSecret && saved.webhookVerifyToken ? (saved as DemoTenant) : { ...saved, ...generateDemoMetaApp() };
    // Likewise the demo people, once: afterwards their memberships are the organization's to change.
    peopleSeeded = saved.people !== undefined;
  } else {
    demo = await seedDemoTenant(services, sandbox ?? { registerBusinessAccount: () => undefined });
  }
  if (peopleSeeded) await ensureDemoAccounts(options.identity.accounts);
  else await seedDemoPeople(services, demo.organizationId, options.identity.accounts);
  // On every boot, so a demo.json from before the Meta app settings existed is provisioned too.
  await services.metaApp.configure({ appSecret: demo.metaAppSecret, verifyToken: demo.webhookVerifyToken });
  return { ...demo, ...demoSignInOf(options.identity) };
}

/** `demo.json` (the demo's credentials and URLs, when there is a demo) and `runtime.env` (the handlers' environment), owner-only. */
export function writeRuntimeFiles(dataDirectory: string, demo: object | undefined, environment: Readonly<Record<string, string>>): void {
  if (demo) writeFileSync(demoFileOf(dataDirectory), `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  writeFileSync(
    join(dataDirectory, 'runtime.env'),
    Object.entries(environment)
      .map(([name, value]) => `${name}=${value}`)
      .join('\n') + '\n',
    { mode: 0o600 },
  );
}
