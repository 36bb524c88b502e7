/**
 * A person's request (docs/PEOPLE.md "Tokens"): the token says who they are, their membership says
 * which organization and role, on every request, so a removed person's next request is refused even
 * while their token is still valid. The organization comes from the membership, never from the token.
 */
import type { Organization, KeyScope } from '../tenancy/tenancy-entities';
import { requireActiveOrganization } from '../tenancy/organization-standing-rule';
import type { MembershipStore, OrganizationStore } from '../tenancy/tenancy-stores';
import { InvalidPersonTokenError, OrganizationChoiceRequiredError } from './errors';
import { consoleRoleOf, personIdOf, type PersonIdentity } from './person';
import type { PersonTokenVerifier } from './ports';

export interface PersonAuthenticationPorts {
  verifier: PersonTokenVerifier;
  tenancy: Pick<MembershipStore, 'listMembershipsOfUser'> & Pick<OrganizationStore, 'getOrganization'>;
}

export interface PersonSignIn {
  /** The Bearer token as presented. */
  token: string;
  /** The `x-organization-id` header: needed only by a member of several organizations. */
  organizationId?: string;
}

/** The caller a person's request is: the organization's scope, counted and audited as the person. */
export interface PersonCaller {
  organizationId: string;
  /** `person:<personId>`: the rate limiter's bucket and the audit log's actor. */
  credentialId: string;
  credentialKind: 'broadcast-api-key';
  scope: KeyScope;
  plan?: Organization['plan'];
  apiAddOn?: boolean;
  person: PersonIdentity;
}

/** The credential id a person's requests carry. */
export const personCredentialId = (personId: string): string => `person:${personId}`;

/**
 * Verifies the token, finds the person's membership and checks their organization may be used.
 * Throws InvalidPersonTokenError (not a member, or not of the organization named),
 * OrganizationChoiceRequiredError (several memberships, none named), OrganizationSuspendedError,
 * IdentityProviderUnavailableError and the store's unavailability as they come.
 *
 * @example
 * const caller = await authenticatePerson(ports, { token, organizationId: headers['x-organization-id'] });
 * caller.person.role; // 'campaign-manager'
 */
export async function authenticatePerson(ports: PersonAuthenticationPorts, signIn: PersonSignIn): Promise<PersonCaller> {
  const identity = await ports.verifier.verify(signIn.token);
  const memberships = await ports.tenancy.listMembershipsOfUser(identity.email);
  const chosen = signIn.organizationId?.trim();
  const membership = chosen ? memberships.find((candidate) => candidate.organizationId === chosen) : memberships.length === 1 ? memberships[0] : undefined;
  if (!membership) {
    if (!chosen && memberships.length > 1) throw new OrganizationChoiceRequiredError();
    throw new InvalidPersonTokenError();
  }
  const organization = requireActiveOrganization(await ports.tenancy.getOrganization(membership.organizationId), () => new InvalidPersonTokenError());
  const personId = personIdOf(membership.organizationId, membership.email);
  return {
    organizationId: membership.organizationId,
    credentialId: personCredentialId(personId),
    credentialKind: 'broadcast-api-key',
    scope: { kind: 'organization' },
    plan: organization.plan,
    apiAddOn: organization.apiAddOn,
    person: { personId, email: membership.email, role: consoleRoleOf(membership) },
  };
}
