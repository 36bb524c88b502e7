/**
 * Where a message id was sent from on the broadcast ledger: its WAMID record (messaging-table.ts),
 * else, for entries written before the records existed, the entry's own gsi1 keys. One place for
 * the recipient ledger (findByMessageId: /upstream ownership) and the delivery store
 * (locateMessage: events without our callback data).
 */
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { decodeMessageIdRecord, messageIdRecordItem } from './messaging-ledger-items';
import { ledgerIndexOf, ledgerLocationOf, messagingKeys } from './messaging-table';

export type LedgerLocation = { jobId: string; chunkIndex: number; index: number };

export async function locateLedgerMessage(client: DynamoDBDocumentClient, tableName: string, messageId: string): Promise<LedgerLocation | undefined> {
  // Consistent: the record is written before the outcome that names the message id, so a reader never misses it.
  const record = await client.send(new GetCommand({ TableName: tableName, Key: messagingKeys.messageIdRecord(messageId), ConsistentRead: true }));
  if (record.Item) return decodeMessageIdRecord(record.Item);
  const { gsi1pk, gsi1sk } = messagingKeys.messageId(messageId);
  const page = await client.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': gsi1pk, ':sk': gsi1sk },
      Limit: 1,
    }),
  );
  const item = page.Items?.[0];
  const location = ledgerLocationOf(item?.pk);
  const index = ledgerIndexOf(item?.sk);
  return location && index !== undefined ? { ...location, index } : undefined;
}

/** Put if absent: a message id keeps the entry it was first recorded for. */
export async function recordLedgerMessage(
  client: DynamoDBDocumentClient,
  tableName: string,
  messageId: string,
  location: LedgerLocation,
  expiresAt: number,
): Promise<void> {
  try {
    await client.send(
      new PutCommand({ TableName: tableName, Item: messageIdRecordItem(messageId, location, expiresAt), ConditionExpression: 'attribute_not_exists(pk)' }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
  }
}
