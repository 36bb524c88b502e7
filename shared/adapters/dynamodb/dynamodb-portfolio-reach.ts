/**
 * A business portfolio's hourly reach buckets in the messaging table (messaging-table.ts): one
 * item per hour holding a serialized reach sketch (binary, at most 16 KiB) and a version that
 * makes each write conditional. The window's 25 buckets are at most ~400 KiB: one Query page.
 * Items expire 26 h after their hour, once no window can read them.
 */
import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { PortfolioReach, ReachBucket } from '../../broadcast/ports';
import { classifyStoreFaults, isConditionalCheckFailure } from './dynamodb-errors';
import { MalformedMessagingItemError, messagingKeys } from './messaging-table';

const RETENTION_SECONDS = 26 * 3600;

const storedBucketSchema = v.object({
  sk: v.pipe(v.string(), v.startsWith(messagingKeys.reachPrefix)),
  sketch: v.instance(Uint8Array),
  /** Each organization's own recipients of the hour (a map of binaries by organization id); absent on older items. */
  byOrganization: v.optional(v.record(v.string(), v.instance(Uint8Array))),
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

function decodeBucket(item: Record<string, unknown>): ReachBucket {
  const result = v.safeParse(storedBucketSchema, item);
  if (!result.success) throw new MalformedMessagingItemError(`Stored reach bucket ${String(item.pk)} ${String(item.sk)} does not match its schema`);
  const { sk, sketch, byOrganization, version } = result.output;
  return { hour: sk.slice(messagingKeys.reachPrefix.length), sketch, ...(byOrganization && { byOrganization }), version };
}

export class DynamoDbPortfolioReach implements PortfolioReach {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  async bucketsOf(businessId: string, fromHour: string, toHour: string): Promise<ReachBucket[]> {
    const buckets: ReachBucket[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.documentClient.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': messagingKeys.portfolioPartition(businessId),
            ':from': messagingKeys.portfolioReach(businessId, fromHour).sk,
            ':to': messagingKeys.portfolioReach(businessId, toHour).sk,
          },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      buckets.push(...(page.Items ?? []).map(decodeBucket));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return buckets;
  }

  async writeBucket(businessId: string, bucket: ReachBucket, expectedVersion: number): Promise<boolean> {
    const hourStartSeconds = Date.parse(`${bucket.hour}:00:00.000Z`) / 1000;
    try {
      await this.documentClient.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...messagingKeys.portfolioReach(businessId, bucket.hour),
            sketch: bucket.sketch,
            ...(bucket.byOrganization && { byOrganization: bucket.byOrganization }),
            version: bucket.version,
            expiresAt: hourStartSeconds + RETENTION_SECONDS,
          },
          ...(expectedVersion === 0
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: '#version = :expected',
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: { ':expected': expectedVersion },
              }),
        }),
      );
      return true;
    } catch (error) {
      // Another accept wrote first (or this write was applied, timed out and retried by the SDK): the caller reads again.
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
  }
}
