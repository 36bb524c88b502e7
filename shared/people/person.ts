/**
 * A person of an organization: one membership (organization, email) of the tenancy store, seen with
 * its console role. People and employees are the same records: the organization API's employees
 * (role `admin` or `member`) are people too; `consoleRole` is the role the console and the broadcast
 * API apply, and a membership without one reads as `admin` for an `admin` employee, `viewer` otherwise.
 */
import { createHash } from 'node:crypto';
import type { Membership } from '../tenancy/tenancy-entities';
import type { PersonRole } from './person-role';

/** The person as the API shows them (GET /people, /me); never a token, a password or a usage key. */
export interface Person {
  personId: string;
  email: string;
  role: PersonRole;
  joinedAt: string;
}

/** Who a person's request is, once their token and membership are checked (the caller's `person`). */
export interface PersonIdentity {
  personId: string;
  email: string;
  role: PersonRole;
}

/**
 * The id of a person in an organization: stable, derived from the organization and the normalized
 * email (so no id table is needed), and no email in a URL (`/people/{personId}`).
 *
 * @example
 * personIdOf('org_1', 'ana@example.com'); // 'psn_' + 20 hex characters
 */
export function personIdOf(organizationId: string, email: string): string {
  return `psn_${createHash('sha256').update(`${organizationId}\n${email}`).digest('hex').slice(0, 20)}`;
}

/**
 * The console role of a membership.
 *
 * @example
 * consoleRoleOf({ organizationId: 'org_1', email: 'a@b.co', role: 'member', joinedAt: '…' }); // 'viewer'
 */
export function consoleRoleOf(membership: Pick<Membership, 'role' | 'consoleRole'>): PersonRole {
  return membership.consoleRole ?? (membership.role === 'admin' ? 'admin' : 'viewer');
}

/**
 * A membership as the API shows the person.
 *
 * @example
 * personOf(membership).personId; // 'psn_…'
 */
export function personOf(membership: Membership): Person {
  return {
    personId: personIdOf(membership.organizationId, membership.email),
    email: membership.email,
    role: consoleRoleOf(membership),
    joinedAt: membership.joinedAt,
  };
}
