/** organization-admin: tenancy (readWrite), rate limits. DynamoDB only. */
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import { bindOrganizationServices, type OrganizationServices } from '../../shared/organizations/organization-services';
import type { TenancyServices } from '../../shared/tenancy/tenancy-services';
import { lazyPorts, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { auditSection } from '../composition/audit.section';
import { httpSection } from '../composition/http.section';
import { tenancySection } from '../composition/tenancy.section';

export interface OrganizationAdminDependencies extends HttpPipelineDependencies {
  organizations: OrganizationServices;
}

export const organizationsSection = (tenancy: () => TenancyServices) => () =>
  bindOrganizationServices({ removeMembers: (input) => tenancy().removeEmployees(input) });

export function composeOrganizationAdmin(context: CompositionContext): OrganizationAdminDependencies {
  const dynamoDb = dynamoDbClients(context);
  const tenancy = tenancySection(context, dynamoDb);
  return lazyPorts<OrganizationAdminDependencies>({
    ...httpSection(context, dynamoDb, tenancy),
    ...auditSection(context, dynamoDb),
    organizations: organizationsSection(tenancy),
  });
}
