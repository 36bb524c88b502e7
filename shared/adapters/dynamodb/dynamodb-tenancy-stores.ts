/** Every tenancy store's DynamoDB adapter over one tenancy table, combined. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { combinePorts } from '../../ports/combine-ports';
import type { AccountDirectory, BillingStore, CredentialStore, MembershipStore, OrganizationStore, TenancyStores } from '../../tenancy/tenancy-stores';
import { DynamoDbAccountDirectory } from './dynamodb-account-directory';
import { DynamoDbBillingStore } from './dynamodb-billing-store';
import { DynamoDbCredentialStore } from './dynamodb-credential-store';
import { DynamoDbMembershipStore } from './dynamodb-membership-store';
import { DynamoDbOrganizationStore } from './dynamodb-organization-store';

/**
 * The five adapters as one object: what `TenancyPorts.tenancy` holds (under the read cache,
 * shared/tenancy/tenancy-read-cache.ts).
 *
 * @example
 * const tenancy = dynamoDbTenancyStores(document, 'tenancy');
 * await tenancy.getOrganization('org_1');
 */
export function dynamoDbTenancyStores(client: DynamoDBDocumentClient, tableName: string): TenancyStores {
  const organizations: OrganizationStore = new DynamoDbOrganizationStore(client, tableName);
  const accounts: AccountDirectory = new DynamoDbAccountDirectory(client, tableName);
  const credentials: CredentialStore = new DynamoDbCredentialStore(client, tableName);
  const memberships: MembershipStore = new DynamoDbMembershipStore(client, tableName);
  const billing: BillingStore = new DynamoDbBillingStore(client, tableName);
  return combinePorts(organizations, accounts, credentials, memberships, billing);
}
