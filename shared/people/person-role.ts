/**
 * The roles a person holds in an organization's console and API (docs/PEOPLE.md "Roles"). Ordered:
 * each role may do everything the roles before it may.
 *
 * - `viewer`: reads everything of the organization.
 * - `campaign-manager`: also audiences, campaigns, launch, pause, resume, cancel, follow-ups, dry runs.
 * - `admin`: also people and roles, API keys, customer webhooks, the audit log.
 *
 * Spelled again as tenancy's `ConsoleRole` (a membership's `consoleRole`; the people module builds on
 * tenancy, not the reverse); test/unit/people/person-role.test.ts holds the two equal.
 */
export type PersonRole = 'viewer' | 'campaign-manager' | 'admin';

export const PERSON_ROLES: readonly PersonRole[] = ['viewer', 'campaign-manager', 'admin'];

/**
 * Whether a person holding `held` may do what needs `needed`.
 *
 * @example
 * roleAllows('admin', 'campaign-manager'); // true
 * roleAllows('viewer', 'campaign-manager'); // false
 */
export function roleAllows(held: PersonRole, needed: PersonRole): boolean {
  return PERSON_ROLES.indexOf(held) >= PERSON_ROLES.indexOf(needed);
}

/**
 * Whether a value is one of the roles (input from a request, a CLI flag or a file).
 *
 * @example
 * isPersonRole('campaign-manager'); // true
 * isPersonRole('owner'); // false
 */
export function isPersonRole(value: unknown): value is PersonRole {
  return typeof value === 'string' && (PERSON_ROLES as readonly string[]).includes(value);
}
