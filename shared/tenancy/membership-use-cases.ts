import type { Clock } from '../ports/clock';
import { InvalidTenancyInputError } from './errors';
import { requireOrganization } from './organization-use-cases';
import { isPlausibleEmail, membershipRoles, normalizeEmail, type Membership, type MembershipRole } from './tenancy-entities';
import { requireOneOf } from './tenancy-input';
import type { MembershipStore, OrganizationStore } from './tenancy-stores';

export interface AddEmployeeInput {
  organizationId: string;
  email: string;
  role: MembershipRole;
}

/** Adds a user to an organization (creating the user if new); for an existing member it changes the role. */
export async function addEmployee(ports: { tenancy: OrganizationStore & MembershipStore; clock: Clock }, input: AddEmployeeInput): Promise<Membership> {
  const email = normalizeEmail(input.email);
  if (!isPlausibleEmail(email)) throw new InvalidTenancyInputError('email is not a valid e-mail address');
  const role = requireOneOf(input.role, membershipRoles, 'role');
  await requireOrganization(ports.tenancy, input.organizationId);

  const now = ports.clock.now().toISOString();
  await ports.tenancy.putUserIfAbsent({ email, createdAt: now });
  const existing = await ports.tenancy.getMembership(input.organizationId, email);
  // A role change keeps the person's console role and usage-plan key (docs/PEOPLE.md "People").
  const membership: Membership = { ...existing, organizationId: input.organizationId, email, role, joinedAt: existing?.joinedAt ?? now };
  await ports.tenancy.putMembership(membership);
  return membership;
}

export interface RemoveEmployeesInput {
  organizationId: string;
  emails: readonly string[];
  /** Who asked (credential id or operator), for the audit record. */
  removedBy: string;
}

export interface RemoveEmployeesResult {
  removedEmails: string[];
  /** Addresses that are not members of this organization (whether or not the user exists elsewhere). */
  notFoundEmails: string[];
}

/** Removal batches are small (an admin's list); a few in flight keeps latency low without a write burst. */
const removalConcurrency = 5;

/**
 * Removes memberships of one organization, leaving the users and their other memberships intact.
 * Partial success is normal: found addresses are removed even when others are not found.
 */
export async function removeEmployees(ports: { tenancy: MembershipStore; clock: Clock }, input: RemoveEmployeesInput): Promise<RemoveEmployeesResult> {
  const emails = [...new Set(input.emails.map((email) => normalizeEmail(String(email))).filter((email) => email !== ''))];
  if (emails.length === 0) throw new InvalidTenancyInputError('No email addresses provided');

  const removedAt = ports.clock.now().toISOString();
  const outcomes = new Map<string, boolean>();
  const queue = [...emails];
  const worker = async () => {
    for (let email = queue.shift(); email !== undefined; email = queue.shift()) {
      const removal = await ports.tenancy.removeMembership(input.organizationId, email, { removedAt, removedBy: input.removedBy });
      outcomes.set(email, removal !== undefined);
    }
  };
  await Promise.all(Array.from({ length: Math.min(removalConcurrency, emails.length) }, worker));
  return {
    removedEmails: emails.filter((email) => outcomes.get(email)),
    notFoundEmails: emails.filter((email) => !outcomes.get(email)),
  };
}
