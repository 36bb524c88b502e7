/** OrganizationStore in memory, as DynamoDbOrganizationStore: create once, updates only of an existing organization. */
import { OrganizationAlreadyExistsError, OrganizationNotFoundError } from '../../../shared/tenancy/errors';
import type { Organization, Plan } from '../../../shared/tenancy/tenancy-entities';
import type { OrganizationStore } from '../../../shared/tenancy/tenancy-stores';
import { stored, type InMemoryTenancyState } from './in-memory-tenancy-state';

export class InMemoryOrganizationStore implements OrganizationStore {
  constructor(private readonly state: InMemoryTenancyState) {}

  async createOrganization(organization: Organization): Promise<void> {
    this.state.touch('createOrganization', organization);
    if (this.state.organizations.has(organization.organizationId)) throw new OrganizationAlreadyExistsError(organization.organizationId);
    this.state.organizations.set(organization.organizationId, stored(organization));
  }

  async getOrganization(organizationId: string): Promise<Organization | undefined> {
    this.state.touch('getOrganization');
    const organization = this.state.organizations.get(organizationId);
    return organization && stored(organization);
  }

  async updateOrganizationPlan(organizationId: string, change: { plan: Plan; apiAddOn: boolean; updatedAt: string }): Promise<Organization> {
    this.state.touch('updateOrganizationPlan', change);
    const organization = this.state.organizations.get(organizationId);
    if (!organization) throw new OrganizationNotFoundError(organizationId);
    Object.assign(organization, change);
    return stored(organization);
  }

  async updateOrganizationKeyGeneration(organizationId: string, change: { keyGenerationEnabled: boolean; updatedAt: string }): Promise<Organization> {
    this.state.touch('updateOrganizationKeyGeneration', change);
    const organization = this.state.organizations.get(organizationId);
    if (!organization) throw new OrganizationNotFoundError(organizationId);
    Object.assign(organization, change);
    return stored(organization);
  }

  async updateOrganizationUsMarketingGuard(organizationId: string, change: { usMarketingGuard: boolean; updatedAt: string }): Promise<Organization> {
    this.state.touch('updateOrganizationUsMarketingGuard', change);
    const organization = this.state.organizations.get(organizationId);
    if (!organization) throw new OrganizationNotFoundError(organizationId);
    Object.assign(organization, change);
    return stored(organization);
  }

  async setOrganizationSuspension(
    organizationId: string,
    change: { suspension: { suspendedAt: string; reason: string } | undefined; updatedAt: string },
  ): Promise<Organization> {
    this.state.touch('setOrganizationSuspension', change);
    const organization = this.state.organizations.get(organizationId);
    if (!organization) throw new OrganizationNotFoundError(organizationId);
    organization.updatedAt = change.updatedAt;
    if (change.suspension) {
      organization.status = 'suspended';
      organization.suspendedAt ??= change.suspension.suspendedAt;
      organization.suspensionReason = change.suspension.reason;
      delete organization.resumedAt;
    } else {
      organization.status = 'active';
      organization.resumedAt = change.updatedAt;
      delete organization.suspendedAt;
      delete organization.suspensionReason;
    }
    return stored(organization);
  }
}
