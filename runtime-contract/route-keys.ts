/**
 * What the HTTP pipeline needs of a route besides its row: the auth kinds, which of them are stored
 * credentials, and the key a group's router dispatches on. A module of its own so a bundle's
 * pipeline does not load the route manifest (route-manifest.ts re-exports them).
 */

/** Auth kinds proven by a stored credential of an organization (the caller is that organization). */
export type CredentialAuthKind = Exclude<AuthKind, 'none' | 'meta-signature'>;

/** How a caller proves who they are. */
export type AuthKind =
  | 'none'
  /**
   * `X-Hub-Signature-256` over the raw body with the platform's Meta app secret (Meta's webhooks);
   * no caller: the operation itself verifies the signature (it needs the raw body and the secret).
   */
  | 'meta-signature'
  /** `x-api-key` header: a broadcast API key (also an API Gateway usage-plan key). */
  | 'broadcast-api-key'
  /** `Authorization: Bearer` organization token (organization administration). */
  | 'organization-token'
  /** `Authorization: Bearer` upstream access token (the /upstream wrapper). */
  | 'upstream-access-token'
  /** `Authorization: Bearer` v1 API key (generic v1 API, plan-limited). */
  | 'v1-api-key';

/**
 * Whether an auth kind is a stored credential (the pipeline authenticates it and the operation gets a caller).
 *
 * @example
 * isCredentialAuth('broadcast-api-key'); // true
 * isCredentialAuth('meta-signature'); // false
 */
export const isCredentialAuth = (auth: AuthKind): auth is CredentialAuthKind => auth !== 'none' && auth !== 'meta-signature';

/**
 * Key the group routers dispatch on; built the same way from an event and from a route.
 *
 * @example
 * routeKey('get', '/broadcast/public/templates'); // 'GET /broadcast/public/templates'
 */
export const routeKey = (method: string, resource: string): string => `${method.toUpperCase()} ${resource}`;
