/**
 * Which usage-plan key meters a keyed request (docs/PEOPLE.md "On AWS"): the broadcast REST API takes
 * its API key from a Lambda authorizer (`apiKeySource: AUTHORIZER`), so back ends' `x-api-key` and
 * people's tokens are both counted by a usage plan. This decides only the metering key; the function
 * still authenticates every request itself (the key's hash, or the person's token and membership).
 */
import type { MembershipStore } from '../tenancy/tenancy-stores';
import type { Membership } from '../tenancy/tenancy-entities';
import { InvalidPersonTokenError } from './errors';
import { personIdOf } from './person';
import type { PersonTokenVerifier } from './ports';

/** The credentials a request presented, from its headers. */
export interface PresentedCredentials {
  /** The `x-api-key` header: wins when both are sent. */
  apiKey?: string;
  /** The token of `Authorization: Bearer <token>`. */
  bearerToken?: string;
  /** The `x-organization-id` header: which of a person's organizations, when they are a member of several. */
  organizationId?: string;
}

/** The key the usage plan counts the request against, and who it is. */
export type UsageIdentifier =
  /** An API key, passed on unread: the usage plan checks it is one of its keys, the function authenticates it. */
  | { kind: 'api-key'; usageIdentifierKey: string }
  /** A person whose token and membership were checked: metered on their own key. */
  | { kind: 'person'; usageIdentifierKey: string; organizationId: string; personId: string }
  /**
   * A member of several organizations who named none: metered on the key of their first membership
   * (by organization id) so the function can answer its 400 ORGANIZATION_CHOICE_REQUIRED.
   */
  | { kind: 'person-choosing'; usageIdentifierKey: string };

export interface UsageIdentifierPorts {
  verifier: PersonTokenVerifier;
  memberships: Pick<MembershipStore, 'listMembershipsOfUser'>;
}

/**
 * The usage identifier of a request. Throws InvalidPersonTokenError when there is nothing to meter
 * it by: no credential, a token no configured issuer signed (or expired), an email of no member (of
 * the organization named), or a membership without a usage-plan key. IdentityProviderUnavailableError
 * and the store's faults pass through (the gateway answers its authorizer failure, never an Allow).
 *
 * @example
 * await usageIdentifierOf(ports, { apiKey: 'bk_live_…' }); // { kind: 'api-key', usageIdentifierKey: 'bk_live_…' } (no read)
 * await usageIdentifierOf(ports, { bearerToken: idToken }); // { kind: 'person', usageIdentifierKey: '…', organizationId, personId }
 */
export async function usageIdentifierOf(ports: UsageIdentifierPorts, presented: PresentedCredentials): Promise<UsageIdentifier> {
  if (presented.apiKey) return { kind: 'api-key', usageIdentifierKey: presented.apiKey };
  if (!presented.bearerToken) throw new InvalidPersonTokenError('No API key and no sign-in');
  const identity = await ports.verifier.verify(presented.bearerToken);
  const memberships = await ports.memberships.listMembershipsOfUser(identity.email);
  const chosen = presented.organizationId?.trim();
  if (!chosen && memberships.length > 1) {
    const first = [...memberships].sort((a, b) => a.organizationId.localeCompare(b.organizationId)).find((membership) => membership.usagePlanKey);
    if (!first?.usagePlanKey) throw new InvalidPersonTokenError();
    return { kind: 'person-choosing', usageIdentifierKey: first.usagePlanKey.value };
  }
  const membership: Membership | undefined = chosen ? memberships.find((candidate) => candidate.organizationId === chosen) : memberships[0];
  // A person invited before usage keys existed has none: nothing to meter them by, so no way in.
  if (!membership?.usagePlanKey) throw new InvalidPersonTokenError();
  return {
    kind: 'person',
    usageIdentifierKey: membership.usagePlanKey.value,
    organizationId: membership.organizationId,
    personId: personIdOf(membership.organizationId, membership.email),
  };
}
