/**
 * `npx tsx sandbox/main.ts` — the Cloud API sandbox on its own, with the demo account, for
 * poking at by hand. The local runtime embeds it through startCloudApiSandbox instead.
 *
 * SANDBOX_PORT (default 4010), SANDBOX_HOST (default 127.0.0.1) and SANDBOX_ACCESS_TOKEN
 * (default "sandbox-demo-token") override the defaults.
 */
import { startCloudApiSandbox } from './cloud-api-sandbox';
import { DEMO_ACCESS_TOKEN, demoBusinessAccount } from './demo-account';

async function main(): Promise<void> {
  const token = process.env.SANDBOX_ACCESS_TOKEN ?? DEMO_ACCESS_TOKEN;
  const account = demoBusinessAccount(token);
  const sandbox = await startCloudApiSandbox({
    port: Number(process.env.SANDBOX_PORT ?? 4010),
    host: process.env.SANDBOX_HOST ?? '127.0.0.1',
    accounts: [account],
  });
  const phone = account.phoneNumbers[0]?.id ?? '';
  console.log(`Cloud API sandbox listening on ${sandbox.url}`);
  console.log(`  WABA ${account.wabaId}, phone number id ${phone}, token ${token}`);
  console.log(`  send:    curl -X POST ${sandbox.url}/v25.0/${phone}/messages -H 'Authorization: Bearer ${token}' \\`);
  console.log(`             -H 'Content-Type: application/json' -d '{"messaging_product":"whatsapp","to":"15551234567","type":"text","text":{"body":"hi"}}'`);
  console.log(`  inspect: curl ${sandbox.url}/_sandbox/messages`);
  console.log('  routes:  templates, media, flows, QR codes, profiles, analytics, ... — see sandbox/README.md');

  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
