/**
 * Which credential a broadcast request presents, and what a person may do (docs/PEOPLE.md "Tokens"):
 * `x-api-key` wins when both are sent; a Bearer token alone is a person's sign-in, accepted only on a
 * route the route table lets people call (`route.people`), and then only for a role that allows it.
 * The token never reaches a log line: it goes from the header to the authenticator and nowhere else.
 */
import type { RouteDefinition } from '../../../runtime-contract/route-manifest';
import { PersonNotAllowedError, RoleNotAllowedError } from '../../people/errors';
import { roleAllows } from '../../people/person-role';
import type { AuthenticatedCaller, PersonPresentation } from '../http-operation';

/** The token of an `Authorization: Bearer <token>` header. */
export const bearerToken = (authorization: string | undefined): string | undefined => /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];

/**
 * The person's sign-in a request presents, or undefined when it presents a key (or nothing, which
 * the key's authentication refuses as before). Throws PersonNotAllowedError for a Bearer token on
 * a route people may not call.
 *
 * @example
 * personSignInOf(route, { authorization: 'Bearer eyJ…' }); // { token: 'eyJ…', organizationId: undefined }
 */
export function personSignInOf(route: RouteDefinition, headers: Readonly<Record<string, string | undefined>>): PersonPresentation | undefined {
  if (route.auth !== 'broadcast-api-key' || headers['x-api-key'] !== undefined) return undefined;
  const token = bearerToken(headers.authorization);
  if (token === undefined) return undefined;
  if (route.people === undefined) throw new PersonNotAllowedError();
  const organizationId = headers['x-organization-id']?.trim();
  return organizationId ? { token, organizationId } : { token };
}

/**
 * Refuses a person whose role does not reach the route's (403 ROLE_NOT_ALLOWED); a key's caller passes.
 *
 * @example
 * requirePersonRole({ ...route, people: 'campaign-manager' }, viewerCaller); // throws RoleNotAllowedError
 */
export function requirePersonRole(route: RouteDefinition, caller: AuthenticatedCaller): void {
  if (caller.person === undefined) return;
  if (route.people === undefined) throw new PersonNotAllowedError();
  if (!roleAllows(caller.person.role, route.people)) throw new RoleNotAllowedError(route.people, caller.person.role);
}
