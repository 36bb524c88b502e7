/**
 * IdentityAccounts over the local OIDC provider's admin endpoint (docs/PEOPLE.md "People"; the
 * provider is local/'s): `POST {url}/accounts { email }` -> `{ created, temporaryPassword? }` and
 * `POST {url}/accounts/end-sessions { email }` -> 204, each with `authorization: Bearer <secret>`.
 * The local provider sends no mail, so a new account's one-time password is shown to the inviter once.
 */
import { IdentityProviderUnavailableError } from '../../people/errors';
import type { IdentityAccounts } from '../../people/ports';

type Fetch = typeof fetch;

const TIMEOUT_MS = 5_000;

export interface LocalIdentityAccountsOptions {
  /** The admin endpoint's base URL (LOCAL_IDENTITY_ADMIN_URL). */
  url: string;
  /** LOCAL_IDENTITY_ADMIN_SECRET. */
  secret: string;
  fetch?: Fetch;
}

/**
 * Builds the local accounts adapter.
 *
 * @example
 * const accounts = localIdentityAccounts({ url: 'http://127.0.0.1:4011/admin', secret });
 * await accounts.ensureAccount('ana@example.com'); // { delivery: 'shown-once', temporaryPassword: '…' }
 */
export function localIdentityAccounts(options: LocalIdentityAccountsOptions): IdentityAccounts {
  const fetchImpl = options.fetch ?? fetch;
  const base = options.url.replace(/\/+$/, '');
  const post = async (path: string, email: string): Promise<Response> => {
    let response: Response;
    try {
      response = await fetchImpl(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${options.secret}` },
        body: JSON.stringify({ email }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new IdentityProviderUnavailableError(`local identity provider unreachable (${error instanceof Error ? error.name : 'error'})`);
    }
    if (!response.ok) throw new IdentityProviderUnavailableError(`local identity provider answered ${response.status}`);
    return response;
  };
  return {
    async ensureAccount(email) {
      const answer = (await (await post('/accounts', email)).json()) as { created?: unknown; temporaryPassword?: unknown };
      if (answer.created === true && typeof answer.temporaryPassword === 'string')
        return { delivery: 'shown-once', temporaryPassword: answer.temporaryPassword };
      return { delivery: 'managed-by-identity-provider' };
    },
    async endSessions(email) {
      await post('/accounts/end-sessions', email);
    },
  };
}
