/**
 * The broadcast module's view of an organization's standing, from tenancy's organization record:
 * a suspended organization's scheduled jobs must not fire (shared/broadcast/fire-scheduled-job.ts).
 */
import type { OrganizationStanding } from '../broadcast/ports';
import type { OrganizationStore } from '../tenancy/tenancy-stores';

export class TenancyOrganizationStanding implements OrganizationStanding {
  constructor(private readonly tenancy: Pick<OrganizationStore, 'getOrganization'>) {}

  async isSuspended(organizationId: string): Promise<boolean> {
    return (await this.tenancy.getOrganization(organizationId))?.status === 'suspended';
  }
}
