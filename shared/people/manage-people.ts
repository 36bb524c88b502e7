/**
 * Inviting a person, changing their role and removing them (docs/PEOPLE.md "People"). Each person is
 * a membership of the tenancy store with its `consoleRole`, an account at the identity provider and a
 * usage-plan key of their own (their requests are metered apart from the organization's key).
 *
 * No transactions (dynalite has none): each step is a single-item write, ordered so that a failure
 * part-way leaves nothing a retry cannot finish.
 */
import type { SecretGenerator } from '../crypto/secret-generator';
import type { Clock } from '../ports/clock';
import type { ApiKeyRegistry } from '../tenancy/api-key-registry';
import { removeEmployees } from '../tenancy/membership-use-cases';
import { requireOrganization } from '../tenancy/organization-use-cases';
import { normalizeEmail, type Membership, type MembershipRole } from '../tenancy/tenancy-entities';
import type { MembershipStore, OrganizationStore } from '../tenancy/tenancy-stores';
import { personCredentialId } from './authenticate-person';
import { LastAdminError, PersonExistsError } from './errors';
import { findPerson, isLastAdmin, requirePeopleManager, type PeopleManager } from './people-directory';
import { personIdOf, personOf, type Person } from './person';
import type { PersonRole } from './person-role';
import type { AccountInvitation, IdentityAccounts } from './ports';

export interface PeoplePorts {
  tenancy: MembershipStore & Pick<OrganizationStore, 'getOrganization'>;
  accounts: IdentityAccounts;
  apiKeys: ApiKeyRegistry;
  secrets: SecretGenerator;
  clock: Clock;
}

/** The employee role kept beside the console role, so the organization API's view agrees. */
const employeeRoleOf = (role: PersonRole): MembershipRole => (role === 'admin' ? 'admin' : 'member');

/** Prefix of a person's usage-plan key value (API Gateway wants at least 20 characters). */
const USAGE_KEY_PREFIX = 'wbp_person_';

const UNREGISTERED_PREFIX = 'unregistered-';

/**
 * A person's own usage-plan key (docs/PEOPLE.md "Metering"): a new value registered with the API
 * Gateway usage plan. Without a usage plan (locally) nothing is registered: the id names the person,
 * and removing it is a no-op there too. Also the demo seed's, for the demo people it makes members.
 *
 * @example
 * const usagePlanKey = await issueUsagePlanKey(ports, 'org_1', 'psn_…'); // { id, value }
 */
export async function issueUsagePlanKey(
  ports: Pick<PeoplePorts, 'apiKeys' | 'secrets'>,
  organizationId: string,
  personId: string,
): Promise<NonNullable<Membership['usagePlanKey']>> {
  const value = ports.secrets.generateSecret(USAGE_KEY_PREFIX);
  const { gatewayApiKeyId } = await ports.apiKeys.registerBroadcastKey({
    credentialId: personCredentialId(personId),
    organizationId,
    plaintextKey: value,
    origin: 'person',
  });
  return { id: gatewayApiKeyId ?? `${UNREGISTERED_PREFIX}${personId}`, value };
}

/**
 * Invites a person: their identity-provider account (created when new), their usage-plan key, then
 * the membership with the role. An existing member answers PersonExistsError (change their role instead).
 *
 * @example
 * const { person, invitation } = await invitePerson(ports, manager, { email: 'ana@example.com', role: 'viewer' });
 */
export async function invitePerson(
  ports: PeoplePorts,
  manager: PeopleManager,
  input: { email: string; role: PersonRole },
): Promise<{ person: Person; invitation: AccountInvitation }> {
  requirePeopleManager(manager);
  const { organizationId } = manager;
  const email = normalizeEmail(input.email);
  await requireOrganization(ports.tenancy, organizationId);
  if (await ports.tenancy.getMembership(organizationId, email)) throw new PersonExistsError();

  const invitation = await ports.accounts.ensureAccount(email);
  const usagePlanKey = await issueUsagePlanKey(ports, organizationId, personIdOf(organizationId, email));
  const gatewayApiKeyId = usagePlanKey.id.startsWith(UNREGISTERED_PREFIX) ? undefined : usagePlanKey.id;
  const now = ports.clock.now().toISOString();
  const membership: Membership = { organizationId, email, role: employeeRoleOf(input.role), joinedAt: now, consoleRole: input.role, usagePlanKey };
  let created: boolean;
  try {
    await ports.tenancy.putUserIfAbsent({ email, createdAt: now });
    created = await ports.tenancy.putMembershipIfAbsent(membership);
  } catch (error) {
    if (gatewayApiKeyId) await ports.apiKeys.removeBroadcastKey(gatewayApiKeyId).catch(() => undefined);
    throw error;
  }
  // Invited at the same instant by another request: theirs stands, this key goes.
  if (!created) {
    if (gatewayApiKeyId) await ports.apiKeys.removeBroadcastKey(gatewayApiKeyId).catch(() => undefined);
    throw new PersonExistsError();
  }
  return { person: personOf(membership), invitation };
}

/**
 * Changes a person's role; taking the admin role from the organization's last admin is refused (LastAdminError).
 *
 * @example
 * await setPersonRole(ports, manager, { personId: 'psn_…', role: 'campaign-manager' });
 */
export async function setPersonRole(
  ports: Pick<PeoplePorts, 'tenancy'>,
  manager: PeopleManager,
  input: { personId: string; role: PersonRole },
): Promise<Person> {
  requirePeopleManager(manager);
  const { membership, memberships } = await findPerson(ports.tenancy, manager.organizationId, input.personId);
  if (input.role !== 'admin' && isLastAdmin(membership, memberships)) throw new LastAdminError();
  const changed: Membership = { ...membership, role: employeeRoleOf(input.role), consoleRole: input.role };
  await ports.tenancy.putMembership(changed);
  return personOf(changed);
}

/**
 * Removes a person: ends their sessions at the identity provider, deletes their usage-plan key, then
 * removes the membership through the organization's removal (with its audit record), after which
 * their next request is refused (401) even with a token still valid. Removing the last admin is refused.
 * Each step may be repeated, so a retry after a failure part-way finishes the removal.
 *
 * @example
 * await removePerson(ports, manager, { personId: 'psn_…' }); // { personId: 'psn_…', removed: true }
 */
export async function removePerson(
  ports: Omit<PeoplePorts, 'secrets'>,
  manager: PeopleManager,
  input: { personId: string },
): Promise<{ personId: string; removed: true }> {
  requirePeopleManager(manager);
  const { membership, memberships } = await findPerson(ports.tenancy, manager.organizationId, input.personId);
  if (isLastAdmin(membership, memberships)) throw new LastAdminError();
  await ports.accounts.endSessions(membership.email);
  const gatewayKeyId = membership.usagePlanKey?.id;
  if (gatewayKeyId && !gatewayKeyId.startsWith('unregistered-')) await ports.apiKeys.removeBroadcastKey(gatewayKeyId);
  await removeEmployees(ports, { organizationId: manager.organizationId, emails: [membership.email], removedBy: manager.credentialId });
  return { personId: input.personId, removed: true };
}
