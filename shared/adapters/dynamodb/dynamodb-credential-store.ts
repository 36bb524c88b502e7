/** Credentials in the tenancy table, by secret hash, and listed per organization through gsi1 (keys: tenancy-table.ts). */
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CredentialNotFoundError } from '../../tenancy/errors';
import type { Credential } from '../../tenancy/tenancy-entities';
import type { CredentialStore } from '../../tenancy/tenancy-stores';
import { isConditionalCheckFailure } from './dynamodb-errors';
import { TenancyTable, tenancyKeys, toEntity } from './tenancy-table';

export class DynamoDbCredentialStore implements CredentialStore {
  private readonly table: TenancyTable;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.table = new TenancyTable(client, tableName);
  }

  async putCredential(credential: Credential): Promise<void> {
    await this.table.put(
      {
        ...tenancyKeys.credential(credential.secretHash),
        ...tenancyKeys.credentialIndex(credential.organizationId, credential.credentialId),
        entity: 'credential',
        ...credential,
      },
      'attribute_not_exists(pk)',
    );
  }

  async getCredentialByHash(secretHash: string): Promise<Credential | undefined> {
    return toEntity(await this.table.get(tenancyKeys.credential(secretHash)));
  }

  async listCredentials(organizationId: string): Promise<Credential[]> {
    const { gsi1pk } = tenancyKeys.credentialIndex(organizationId, '');
    return this.table.queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi1pk },
    });
  }

  async findCredentialById(organizationId: string, credentialId: string): Promise<Credential | undefined> {
    const { gsi1pk, gsi1sk } = tenancyKeys.credentialIndex(organizationId, credentialId);
    const [credential] = await this.table.queryAll<Credential>({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': gsi1pk, ':sk': gsi1sk },
    });
    return credential;
  }

  async revokeCredential(secretHash: string, organizationId: string, revokedAt: string): Promise<Credential> {
    try {
      const result = await this.table.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: tenancyKeys.credential(secretHash),
          // if_not_exists keeps the first revocation time when revoking twice.
          UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :revokedAt)',
          ConditionExpression: 'organizationId = :organizationId',
          ExpressionAttributeValues: { ':revokedAt': revokedAt, ':organizationId': organizationId },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toEntity<Credential>(result.Attributes)!;
    } catch (error) {
      if (isConditionalCheckFailure(error)) throw new CredentialNotFoundError('(by hash)');
      throw error;
    }
  }

  async holdGeneratedKeySlot(organizationId: string, holder: string, limit: number): Promise<boolean> {
    try {
      await this.table.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: tenancyKeys.generatedKeySlots(organizationId),
          // Adding a member a set holds changes nothing, so a retried write that was applied passes
          // its own condition (`contains`) and answers true again instead of counting twice.
          UpdateExpression: 'ADD holders :holders',
          ConditionExpression: 'attribute_not_exists(holders) OR size(holders) < :limit OR contains(holders, :holder)',
          ExpressionAttributeValues: { ':holders': new Set([holder]), ':limit': limit, ':holder': holder },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
  }

  async releaseGeneratedKeySlot(organizationId: string, holder: string): Promise<void> {
    try {
      await this.table.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: tenancyKeys.generatedKeySlots(organizationId),
          // Deleting a member the set lacks is a no-op; the condition keeps a release from creating the item.
          UpdateExpression: 'DELETE holders :holders',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':holders': new Set([holder]) },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }

  async listGeneratedKeySlots(organizationId: string): Promise<string[]> {
    const item = await this.table.get(tenancyKeys.generatedKeySlots(organizationId));
    const holders = item?.holders;
    return holders instanceof Set ? [...(holders as Set<string>)].sort() : [];
  }
}
