/** Users, memberships (by organization, and by user through gsi1) and removal audit records in the tenancy table (keys: tenancy-table.ts). */
import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Membership, MembershipRemoval, User } from '../../tenancy/tenancy-entities';
import type { MembershipStore } from '../../tenancy/tenancy-stores';
import { isConditionalCheckFailure } from './dynamodb-errors';
import { TenancyTable, tenancyKeys, toEntity } from './tenancy-table';

export class DynamoDbMembershipStore implements MembershipStore {
  private readonly table: TenancyTable;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.table = new TenancyTable(client, tableName);
  }

  async putUserIfAbsent(user: User): Promise<void> {
    try {
      await this.table.put({ ...tenancyKeys.user(user.email), entity: 'user', ...user }, 'attribute_not_exists(pk)');
    } catch (error) {
      if (isConditionalCheckFailure(error)) return;
      throw error;
    }
  }

  async getUser(email: string): Promise<User | undefined> {
    return toEntity(await this.table.get(tenancyKeys.user(email)));
  }

  async putMembership(membership: Membership): Promise<void> {
    await this.table.put({
      ...tenancyKeys.membership(membership.organizationId, membership.email),
      ...tenancyKeys.membershipIndex(membership.organizationId, membership.email),
      entity: 'membership',
      ...membership,
    });
  }

  async putMembershipIfAbsent(membership: Membership): Promise<boolean> {
    try {
      await this.table.put(
        {
          ...tenancyKeys.membership(membership.organizationId, membership.email),
          ...tenancyKeys.membershipIndex(membership.organizationId, membership.email),
          entity: 'membership',
          ...membership,
        },
        'attribute_not_exists(pk)',
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
  }

  async getMembership(organizationId: string, email: string): Promise<Membership | undefined> {
    return toEntity(await this.table.get(tenancyKeys.membership(organizationId, email)));
  }

  async listMembershipsOfOrganization(organizationId: string): Promise<Membership[]> {
    return this.table.queryPartition(`ORG#${organizationId}`, 'MEMBER#');
  }

  async listMembershipsOfUser(email: string): Promise<Membership[]> {
    const { gsi1pk } = tenancyKeys.membershipIndex('', email);
    return this.table.queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': gsi1pk, ':prefix': 'MEMBER#ORG#' },
    });
  }

  async removeMembership(organizationId: string, email: string, audit: { removedAt: string; removedBy: string }): Promise<MembershipRemoval | undefined> {
    const membership = await this.getMembership(organizationId, email);
    if (!membership) return undefined;
    const removal: MembershipRemoval = { ...membership, removedAt: audit.removedAt, removedBy: audit.removedBy };
    await this.table.put({ ...tenancyKeys.membershipRemoval(organizationId, audit.removedAt, email), entity: 'membership-removal', ...removal });
    try {
      await this.table.send(
        new DeleteCommand({
          TableName: this.table.tableName,
          Key: tenancyKeys.membership(organizationId, email),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
      return removal;
    } catch (error) {
      // Removed concurrently by another request; that request reports the removal.
      if (isConditionalCheckFailure(error)) return undefined;
      throw error;
    }
  }

  async listMembershipRemovals(organizationId: string): Promise<MembershipRemoval[]> {
    return this.table.queryPartition(`ORG#${organizationId}`, 'AUDIT#MEMBER_REMOVED#');
  }
}
