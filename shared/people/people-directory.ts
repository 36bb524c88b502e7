/**
 * The organization's people as the people use cases read them: who may manage them, finding one by
 * id, and the count of admins the organization must keep (docs/PEOPLE.md "People").
 */
import type { KeyScope, Membership } from '../tenancy/tenancy-entities';
import type { MembershipStore } from '../tenancy/tenancy-stores';
import { PeopleManagementOutsideKeyScopeError, PersonNotFoundError } from './errors';
import { consoleRoleOf, personIdOf, personOf, type Person, type PersonIdentity } from './person';

/** Who manages people: an admin's sign-in, the organization's API key, or an operator (the CLI, no scope). */
export interface PeopleManager {
  organizationId: string;
  /** Recorded as `removedBy` of a removal: `person:<personId>`, a credential id, or the operator's name. */
  credentialId: string;
  scope?: KeyScope;
  person?: PersonIdentity;
}

const PERSON_ID = /^psn_[0-9a-f]{20}$/;

/**
 * Refuses a key bound to one sender: people are the organization's, as its webhooks are.
 *
 * @example
 * requirePeopleManager({ organizationId: 'org_1', credentialId: 'cred_1', scope: { kind: 'organization' } });
 */
export function requirePeopleManager(manager: PeopleManager): void {
  if (manager.scope !== undefined && manager.scope.kind !== 'organization') throw new PeopleManagementOutsideKeyScopeError();
}

/**
 * The organization's people in e-mail order.
 *
 * @example
 * (await listPeople(tenancy, 'org_1'))[0]; // { personId: 'psn_…', email, role, joinedAt }
 */
export async function listPeople(tenancy: Pick<MembershipStore, 'listMembershipsOfOrganization'>, organizationId: string): Promise<Person[]> {
  return (await tenancy.listMembershipsOfOrganization(organizationId)).map(personOf);
}

/**
 * The membership of a person of the organization; PersonNotFoundError for an id of no member (or of
 * another organization's member: the id is derived from the organization too).
 *
 * @example
 * const { membership, memberships } = await findPerson(tenancy, 'org_1', 'psn_0123456789abcdef0123');
 */
export async function findPerson(
  tenancy: Pick<MembershipStore, 'listMembershipsOfOrganization'>,
  organizationId: string,
  personId: string,
): Promise<{ membership: Membership; memberships: Membership[] }> {
  if (!PERSON_ID.test(personId)) throw new PersonNotFoundError();
  const memberships = await tenancy.listMembershipsOfOrganization(organizationId);
  const membership = memberships.find((candidate) => personIdOf(organizationId, candidate.email) === personId);
  if (!membership) throw new PersonNotFoundError();
  return { membership, memberships };
}

/**
 * Whether the membership is the organization's only admin (removing or demoting it would leave none).
 *
 * @example
 * isLastAdmin(ana, [ana, bob]); // true when ana alone has the admin role
 */
export function isLastAdmin(membership: Membership, memberships: readonly Membership[]): boolean {
  if (consoleRoleOf(membership) !== 'admin') return false;
  return memberships.filter((candidate) => consoleRoleOf(candidate) === 'admin').length <= 1;
}
