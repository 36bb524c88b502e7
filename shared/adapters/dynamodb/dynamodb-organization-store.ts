/** Organizations in the tenancy table (keys: tenancy-table.ts). */
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { OrganizationAlreadyExistsError, OrganizationNotFoundError } from '../../tenancy/errors';
import type { Organization, Plan } from '../../tenancy/tenancy-entities';
import type { OrganizationStore } from '../../tenancy/tenancy-stores';
import { isConditionalCheckFailure } from './dynamodb-errors';
import { TenancyTable, tenancyKeys, toEntity } from './tenancy-table';

export class DynamoDbOrganizationStore implements OrganizationStore {
  private readonly table: TenancyTable;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.table = new TenancyTable(client, tableName);
  }

  async createOrganization(organization: Organization): Promise<void> {
    try {
      await this.table.put({ ...tenancyKeys.organization(organization.organizationId), entity: 'organization', ...organization }, 'attribute_not_exists(pk)');
    } catch (error) {
      if (isConditionalCheckFailure(error)) throw new OrganizationAlreadyExistsError(organization.organizationId);
      throw error;
    }
  }

  async getOrganization(organizationId: string): Promise<Organization | undefined> {
    return toEntity(await this.table.get(tenancyKeys.organization(organizationId)));
  }

  async updateOrganizationPlan(organizationId: string, change: { plan: Plan; apiAddOn: boolean; updatedAt: string }): Promise<Organization> {
    return updateOrganization(this.table, organizationId, change);
  }

  async updateOrganizationKeyGeneration(organizationId: string, change: { keyGenerationEnabled: boolean; updatedAt: string }): Promise<Organization> {
    return updateOrganization(this.table, organizationId, change);
  }

  async updateOrganizationUsMarketingGuard(organizationId: string, change: { usMarketingGuard: boolean; updatedAt: string }): Promise<Organization> {
    return updateOrganization(this.table, organizationId, change);
  }

  async setOrganizationSuspension(
    organizationId: string,
    change: { suspension: { suspendedAt: string; reason: string } | undefined; updatedAt: string },
  ): Promise<Organization> {
    const { suspension, updatedAt } = change;
    // `status` is a reserved word; the first suspension's time stays when an operator suspends again;
    // a resume records its time (a suspension's later pass reports it) and a suspension removes it.
    const expression = suspension
      ? {
          update:
            'SET #status = :status, suspendedAt = if_not_exists(suspendedAt, :suspendedAt), suspensionReason = :reason, updatedAt = :updatedAt REMOVE resumedAt',
          values: { ':suspendedAt': suspension.suspendedAt, ':reason': suspension.reason },
        }
      : { update: 'SET #status = :status, updatedAt = :updatedAt, resumedAt = :updatedAt REMOVE suspendedAt, suspensionReason', values: {} };
    try {
      const result = await this.table.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: tenancyKeys.organization(organizationId),
          UpdateExpression: expression.update,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': suspension ? 'suspended' : 'active', ':updatedAt': updatedAt, ...expression.values },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toEntity<Organization>(result.Attributes)!;
    } catch (error) {
      if (isConditionalCheckFailure(error)) throw new OrganizationNotFoundError(organizationId);
      throw error;
    }
  }
}

/** SET of the given attributes on an existing organization (names are placeholders: `plan` is a reserved word). */
async function updateOrganization(table: TenancyTable, organizationId: string, change: Record<string, unknown>): Promise<Organization> {
  const names = Object.keys(change);
  try {
    const result = await table.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: tenancyKeys.organization(organizationId),
        UpdateExpression: `SET ${names.map((_, index) => `#a${index} = :a${index}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#a${index}`, name])),
        ExpressionAttributeValues: Object.fromEntries(names.map((name, index) => [`:a${index}`, change[name]])),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toEntity<Organization>(result.Attributes)!;
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw new OrganizationNotFoundError(organizationId);
    throw error;
  }
}
