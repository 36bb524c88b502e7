/**
 * The organization's part of every authentication (an API key's or a person's sign-in): checked on
 * every request, not at issue time only, so suspending an organization stops its keys and its people
 * at once (docs/OPERATIONS.md "Suspending an organization").
 */
import { OrganizationSuspendedError } from './errors';
import type { Organization } from './tenancy-entities';

/**
 * The organization when it may be used; a suspended one raises OrganizationSuspendedError (403), a
 * missing or otherwise inactive one the caller's own refusal (`refuse`, a 401 of its kind).
 *
 * @example
 * requireActiveOrganization(await tenancy.getOrganization(id), () => new InvalidCredentialError());
 */
export function requireActiveOrganization(organization: Organization | undefined, refuse: () => Error): Organization {
  if (!organization) throw refuse();
  if (organization.status === 'suspended') throw new OrganizationSuspendedError(organization.organizationId);
  if (organization.status !== 'active') throw refuse();
  return organization;
}
