/**
 * The organization's US marketing guard (docs/BROADCAST.md "131049", docs/OPERATIONS.md "US
 * marketing guard"): on by default, MARKETING templates to US (+1) recipients are refused at accept
 * (Meta has paused marketing templates to US numbers since 2025-04-01); an operator turns it off
 * for an organization that knows better (e.g. a pause Meta has lifted for it).
 */
import { InvalidTenancyInputError } from './errors';
import type { Organization } from './tenancy-entities';
import type { OrganizationStore } from './tenancy-stores';

/**
 * Turns the organization's US marketing guard on or off; returns the organization as stored.
 *
 * @example
 * await setUsMarketingGuard({ tenancy, clock }, { organizationId: 'org_1', enabled: false }); // { ..., usMarketingGuard: false }
 */
export async function setUsMarketingGuard(
  ports: { tenancy: Pick<OrganizationStore, 'updateOrganizationUsMarketingGuard'>; clock: { now(): Date } },
  input: { organizationId: string; enabled: boolean },
): Promise<Organization> {
  if (typeof input.enabled !== 'boolean') throw new InvalidTenancyInputError('enabled must be true or false');
  return ports.tenancy.updateOrganizationUsMarketingGuard(input.organizationId, {
    usMarketingGuard: input.enabled,
    updatedAt: ports.clock.now().toISOString(),
  });
}

/**
 * Whether the guard is on for an organization (absent: on).
 *
 * @example
 * usMarketingGuardOn({ usMarketingGuard: false }); // false
 * usMarketingGuardOn({}); // true
 */
export const usMarketingGuardOn = (organization: Pick<Organization, 'usMarketingGuard'> | undefined): boolean => organization?.usMarketingGuard !== false;
