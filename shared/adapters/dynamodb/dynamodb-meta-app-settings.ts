/** The platform's Meta app settings: one item of the tenancy table, `PLATFORM` / `META_APP` (docs/DATA-MODEL.md). */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { MetaAppSettingsStore, StoredMetaApp } from '../../meta-app/ports';
import { classifyStoreFaults } from './dynamodb-errors';
import { tenancyKeys } from './tenancy-table';

export class DynamoDbMetaAppSettings implements MetaAppSettingsStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.client);
  }

  async read(): Promise<StoredMetaApp | undefined> {
    // Strongly consistent: a secret set a moment ago is the one the next signature is checked with.
    const result = await this.client.send(new GetCommand({ TableName: this.tableName, Key: tenancyKeys.metaApp(), ConsistentRead: true }));
    const item = result.Item;
    if (!item || typeof item.encryptedAppSecret !== 'string' || typeof item.encryptedVerifyToken !== 'string') return undefined;
    return { encryptedAppSecret: item.encryptedAppSecret, encryptedVerifyToken: item.encryptedVerifyToken, updatedAt: String(item.updatedAt ?? '') };
  }

  async write(settings: StoredMetaApp): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: { ...tenancyKeys.metaApp(), entity: 'META_APP', ...settings } }));
  }
}
