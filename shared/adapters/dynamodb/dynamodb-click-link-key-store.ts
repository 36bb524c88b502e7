/** The platform's tracked-link key in the messaging table, `PLATFORM#CLICK_LINK` / `KEY` (docs/DATA-MODEL.md). */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ClickLinkKeyStore } from '../../clicks/ports';
import { classifyStoreFaults, isConditionalCheckFailure } from './dynamodb-errors';
import { messagingKeys } from './messaging-table';

/**
 * @example
 * const store = new DynamoDbClickLinkKeyStore(documentClient, 'messaging');
 * await store.createIfAbsent('kms:…'); // the stored ciphertext, this one or an earlier writer's
 */
export class DynamoDbClickLinkKeyStore implements ClickLinkKeyStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(client);
  }

  async read(): Promise<string | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: messagingKeys.clickLinkKey(), ConsistentRead: true }));
    return typeof Item?.encryptedKey === 'string' ? Item.encryptedKey : undefined;
  }

  async createIfAbsent(encrypted: string): Promise<string> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...messagingKeys.clickLinkKey(), entity: 'CLICK_LINK_KEY', encryptedKey: encrypted, createdAt: new Date().toISOString() },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return encrypted;
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      // Another container made it first: everyone signs with that one.
      const stored = await this.read();
      if (stored === undefined) throw error;
      return stored;
    }
  }
}
