/**
 * `npm run sandbox` (`npx tsx sandbox/main.ts`) — the Cloud API sandbox on its own, serving the
 * demo tenant's business accounts (local/demo-tenant.ts, the same ones `npm start` registers), for
 * poking at by hand. The local runtime embeds it through startCloudApiSandbox instead.
 *
 * SANDBOX_PORT (default 4010), SANDBOX_HOST (default 127.0.0.1) and SANDBOX_ACCESS_TOKEN (default
 * the first demo account's token) override the defaults.
 */
import { demoSandboxAccounts } from '../local/demo-tenant';
import { listeningOn, PortInUseError } from '../local/errors';
import { startCloudApiSandbox } from './cloud-api-sandbox';

async function main(): Promise<void> {
  const [account, ...others] = demoSandboxAccounts();
  if (!account) throw new Error('The demo tenant has no business account');
  const token = process.env.SANDBOX_ACCESS_TOKEN ?? account.accessToken;
  account.accessToken = token;
  const port = Number(process.env.SANDBOX_PORT ?? 4010);
  const sandbox = await listeningOn(port, 'SANDBOX_PORT', 'the Cloud API sandbox', () =>
    startCloudApiSandbox({ port, host: process.env.SANDBOX_HOST ?? '127.0.0.1', accounts: [account, ...others] }),
  );
  const phone = account.phoneNumbers[0]?.id ?? '';
  console.log(`Cloud API sandbox listening on ${sandbox.url}`);
  console.log(`  WABA ${account.wabaId}, phone number id ${phone}, token ${token}`);
  console.log(`  send:    curl -X POST ${sandbox.url}/v25.0/${phone}/messages -H 'Authorization: Bearer ${token}' \\`);
  console.log(`             -H 'Content-Type: application/json' -d '{"messaging_product":"whatsapp","to":"15551234567","type":"text","text":{"body":"hi"}}'`);
  console.log(`  inspect: curl '${sandbox.url}/_sandbox/messages?limit=20'`);
  console.log('  routes:  templates, media, flows, QR codes, profiles, analytics, ... — see sandbox/README.md');

  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  // A taken port is said in one line with the setting to change; anything else with its stack.
  console.error(error instanceof PortInUseError ? `sandbox failed to start: ${error.message}` : error);
  process.exit(1);
});
