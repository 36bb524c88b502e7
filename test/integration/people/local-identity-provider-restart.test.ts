/**
 * The local identity provider with a persisting runtime (`npm start`): its signing key and accounts
 * are kept in the data directory, so an ID token issued before a restart still verifies and an
 * invited person's password still works. The provider alone, on a fixed port (the issuer is its URL).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJoseTokenVerifier } from '../../../shared/adapters/oidc/jose-token-verifier';
import { startIdentityProvider, type LocalIdentityProvider } from '../../../local/identity-provider/identity-provider';
import { createOidcBrowser, signInAsPerson } from '../../support/oidc-browser';

const consoleOrigin = 'http://127.0.0.1:3999';
let dataDirectory: string;
let running: LocalIdentityProvider | undefined;

beforeEach(() => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'identity-restart-'));
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
  rmSync(dataDirectory, { recursive: true, force: true });
});

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

async function start(port: number): Promise<{ identity: LocalIdentityProvider; discovery: Record<string, string> }> {
  const identity = await startIdentityProvider({ port, dataDirectory, persist: true });
  running = identity;
  await identity.serveConsole(consoleOrigin);
  const discovery = (await (await fetch(`${identity.issuer}/.well-known/openid-configuration`)).json()) as Record<string, string>;
  return { identity, discovery };
}

it('keeps its signing key and accounts across a restart; the admin secret is new each time', async () => {
  const port = await freePort();
  const first = await start(port);
  const { temporaryPassword } = await first.identity.accounts.ensureAccount('ana@example.com');
  const { tokens } = await signInAsPerson(createOidcBrowser(), {
    discovery: first.discovery,
    redirectUri: `${consoleOrigin}/console/`,
    email: 'ana@example.com',
    password: temporaryPassword!,
  });
  const firstSecret = first.identity.adminSecret;
  await first.identity.stop();
  // fetch's pool still holds the keep-alive sockets the stop closed until it reads their end: let it.
  await new Promise((resolve) => setTimeout(resolve, 50));
  for (const file of ['identity-keys.json', 'identity-accounts.json']) expect(statSync(join(dataDirectory, file)).mode & 0o777).toBe(0o600);

  const second = await start(port);
  expect(second.identity.adminSecret).not.toBe(firstSecret);
  const verifier = createJoseTokenVerifier({ issuers: [{ issuer: second.identity.issuer, audience: 'console' }] });
  expect(await verifier.verify(tokens.id_token)).toMatchObject({ email: 'ana@example.com' });
  await signInAsPerson(createOidcBrowser(), {
    issuer: second.identity.issuer,
    redirectUri: `${consoleOrigin}/prod/api/v2/console/`,
    email: 'ana@example.com',
    password: temporaryPassword!,
  });
});

it('answers 503 until the console is registered, while its admin endpoint already works', async () => {
  const identity = await startIdentityProvider({ port: 0, dataDirectory, persist: false });
  running = identity;
  expect((await fetch(`${identity.issuer}/.well-known/openid-configuration`)).status).toBe(503);
  const created = await fetch(`${identity.adminUrl}/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${identity.adminSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ana@example.com' }),
  });
  expect(created.status).toBe(200);
});
