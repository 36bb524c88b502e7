/**
 * The local identity provider's interactions (oidc-provider sends the browser to `/interaction/<uid>`
 * when it needs one): the sign-in page and its form, and the console's consent, which is granted in
 * code (the console is the platform's own first-party client: no consent page). A successful sign-in
 * finishes login and consent together, so the browser goes straight back to the console.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccountStore } from './account-store';
import { BodyTooLargeError, UnexpectedConsentError } from './errors';
import type { InteractionDetails, OidcProvider } from './oidc-provider-types';
import { CONSOLE_CLIENT_ID } from './provider-configuration';
import { errorPage, signInPage } from './sign-in-pages';
import { readBody, sendHtml } from './identity-http-io';

/** `/interaction/<uid>` and `/interaction/<uid>/login`. */
export const interactionPath = /^\/interaction\/([A-Za-z0-9_-]+)(\/login)?$/;

/**
 * Answers an interaction request; false when the path is not one.
 *
 * @example
 * if (await handleInteraction(provider, accounts, request, response)) return;
 */
export async function handleInteraction(provider: OidcProvider, accounts: AccountStore, request: IncomingMessage, response: ServerResponse): Promise<boolean> {
  const match = interactionPath.exec(new URL(request.url ?? '/', 'http://idp').pathname);
  if (!match) return false;
  let details: InteractionDetails;
  try {
    details = await provider.interactionDetails(request, response);
  } catch {
    // No interaction for this browser (expired, or its cookie is gone): nothing to sign in to.
    sendHtml(response, 400, errorPage({ error: 'session_expired', error_description: 'This sign-in page has expired.' }));
    return true;
  }
  const isLoginPost = match[2] === '/login' && request.method === 'POST';
  if (isLoginPost && details.prompt.name === 'login') await signIn(provider, accounts, details, request, response);
  else if (request.method === 'GET' && details.prompt.name === 'login')
    sendHtml(response, 200, signInPage({ action: `/interaction/${details.uid}/login`, failed: false, email: details.params.login_hint }));
  else if (request.method === 'GET' && details.prompt.name === 'consent')
    await provider.interactionFinished(request, response, { consent: { grantId: await consoleGrant(provider, details) } }, { mergeWithLastSubmission: true });
  else sendHtml(response, 400, errorPage({ error: 'invalid_request', error_description: 'This sign-in step cannot be completed here.' }));
  return true;
}

async function signIn(
  provider: OidcProvider,
  accounts: AccountStore,
  details: InteractionDetails,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  let form: URLSearchParams;
  try {
    form = new URLSearchParams(await readBody(request));
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    sendHtml(response, 413, errorPage({ error: 'invalid_request', error_description: 'The sign-in form was too large.' }));
    return;
  }
  const email = form.get('email') ?? '';
  const account = await accounts.verifyPassword(email, form.get('password') ?? '');
  if (!account) {
    sendHtml(response, 401, signInPage({ action: `/interaction/${details.uid}/login`, failed: true, email }));
    return;
  }
  const grantId = await consoleGrant(provider, { ...details, session: { accountId: account.accountId } });
  await provider.interactionFinished(request, response, { login: { accountId: account.accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
}

/**
 * The console's grant: what it asked for (scopes, claims), added to the session's existing grant or
 * a new one. Only the console is registered; any other client id is refused before this.
 */
async function consoleGrant(provider: OidcProvider, details: InteractionDetails): Promise<string> {
  const accountId = details.session?.accountId;
  if (!accountId || details.params.client_id !== CONSOLE_CLIENT_ID) throw new UnexpectedConsentError();
  const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
  const grant = existing ?? new provider.Grant({ accountId, clientId: CONSOLE_CLIENT_ID });
  const missing = details.prompt.details;
  grant.addOIDCScope(missing.missingOIDCScope?.join(' ') ?? String(details.params.scope ?? 'openid'));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
  return grant.save();
}
