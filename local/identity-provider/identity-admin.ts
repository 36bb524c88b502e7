/**
 * The admin endpoint of the local identity provider, for the platform's local IdentityAccounts
 * adapter (docs/PEOPLE.md "Identity accounts"): `POST /admin/accounts` `{ email }` -> 200
 * `{ created, temporaryPassword? }` and `POST /admin/accounts/end-sessions` `{ email }` -> 204, both
 * with `authorization: Bearer <secret>` (made per runtime, handed to the functions as
 * LOCAL_IDENTITY_ADMIN_SECRET; compared in constant time).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccountStore } from './account-store';
import { BodyTooLargeError, InvalidAccountInputError } from './errors';
import { readBody, sendJson } from './identity-http-io';
import type { ProviderStorage } from './provider-storage';

/** Where the admin endpoint lives on the provider's server; LOCAL_IDENTITY_ADMIN_URL is the issuer plus this. */
export const ADMIN_PATH = '/admin';

export interface AdminEndpoint {
  accounts: AccountStore;
  storage: ProviderStorage;
  secret: string;
}

/**
 * Answers an admin request; false when the path is not under `/admin`.
 *
 * @example
 * if (await handleAdmin({ accounts, storage, secret }, request, response)) return;
 */
export async function handleAdmin(endpoint: AdminEndpoint, request: IncomingMessage, response: ServerResponse): Promise<boolean> {
  const path = new URL(request.url ?? '/', 'http://idp').pathname;
  if (path !== ADMIN_PATH && !path.startsWith(`${ADMIN_PATH}/`)) return false;
  if (!authorized(request.headers.authorization, endpoint.secret)) {
    response.setHeader('www-authenticate', 'Bearer');
    sendJson(response, 401, { error: 'unauthorized' });
    return true;
  }
  const route = `${request.method} ${path.slice(ADMIN_PATH.length)}`;
  if (route !== 'POST /accounts' && route !== 'POST /accounts/end-sessions') {
    sendJson(response, 404, { error: 'not_found' });
    return true;
  }
  let email: string;
  try {
    email = emailOf(await readBody(request));
  } catch (error) {
    if (!(error instanceof InvalidAccountInputError || error instanceof BodyTooLargeError)) throw error;
    sendJson(response, 400, { error: 'invalid_request', message: error.message });
    return true;
  }
  if (route === 'POST /accounts') await createAccount(endpoint.accounts, email, response);
  else {
    const account = endpoint.accounts.findByEmail(email);
    if (account) endpoint.storage.endSessionsOf(account.accountId);
    sendJson(response, 204);
  }
  return true;
}

async function createAccount(accounts: AccountStore, email: string, response: ServerResponse): Promise<void> {
  try {
    const { created, temporaryPassword } = await accounts.ensureAccount(email);
    sendJson(response, 200, { created, ...(temporaryPassword ? { temporaryPassword } : {}) });
  } catch (error) {
    if (!(error instanceof InvalidAccountInputError)) throw error;
    sendJson(response, 400, { error: 'invalid_request', message: error.message });
  }
}

function emailOf(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new InvalidAccountInputError('body must be JSON: { "email": "…" }');
  }
  const email = (parsed as { email?: unknown } | null)?.email;
  if (typeof email !== 'string' || email.trim() === '') throw new InvalidAccountInputError('email is required and must be a string');
  return email;
}

/** Constant time whatever the lengths: both sides hashed before the comparison. */
function authorized(header: string | undefined, secret: string): boolean {
  const presented = /^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(secret)) && presented !== '';
}
