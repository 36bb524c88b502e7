/**
 * TouchStore over the messaging table (`TOUCH#<org>#<person key>` / `TOUCH`, messaging-table.ts):
 * one item per person key holding their latest touch. A touch is a conditional PutItem per key
 * that only replaces an older `at` (an older touch arriving late, or the same one again, writes
 * nothing: the failed condition is the answer). `latestTouch` is one consistent BatchGetItem of the
 * keys. The item expires (TTL `expiresAt`) a day after its window closes; dynalite keeps it, and
 * the attribution rule checks the window in code (shared/outcomes/attribute-inbound.ts).
 */
import { BatchGetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { Touch, TouchStore } from '../../outcomes/ports';
import { StoreUnavailableError } from '../../ports/errors';
import { classifyStoreFaults, isConditionalCheckFailure } from './dynamodb-errors';
import { MalformedMessagingItemError, messagingKeys } from './messaging-table';

/** Kept a day past the window, so a message Meta delivers late is still attributed. */
const KEPT_AFTER_WINDOW_SECONDS = 86_400;
/** BatchGetItem's unprocessed keys are asked again this many times. */
const BATCH_GET_ATTEMPTS = 5;

const touchItemSchema = v.object({
  jobId: v.string(),
  campaignId: v.optional(v.string()),
  chunkIndex: v.number(),
  index: v.number(),
  at: v.string(),
  windowHours: v.number(),
  heldOut: v.optional(v.literal(true)),
});

/**
 * @example
 * const touches = new DynamoDbTouchStore(documentClient, 'messaging');
 * await touches.recordTouches('org_1', [{ personKeys: ['12025550123'], touch: { jobId: 'pub_1', chunkIndex: 0, index: 4, at: '2026-09-01T10:00:00.000Z', windowHours: 72 } }]);
 * await touches.latestTouch('org_1', ['12025550123']); // { jobId: 'pub_1', … }
 */
export class DynamoDbTouchStore implements TouchStore {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(documentClient);
  }

  async recordTouches(organizationId: string, touches: ReadonlyArray<{ personKeys: readonly string[]; touch: Touch }>): Promise<void> {
    const writes = touches.flatMap(({ personKeys, touch }) => [...new Set(personKeys)].map((key) => this.keepNewer(organizationId, key, touch)));
    const settled = await Promise.allSettled(writes);
    const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  }

  async latestTouch(organizationId: string, personKeys: readonly string[]): Promise<Touch | undefined> {
    const keys = [...new Set(personKeys)].map((key) => messagingKeys.touch(organizationId, key));
    if (keys.length === 0) return undefined;
    const items: Array<Record<string, unknown>> = [];
    let pending: Array<Record<string, unknown>> = keys;
    for (let attempt = 0; pending.length > 0 && attempt < BATCH_GET_ATTEMPTS; attempt += 1) {
      const answer = await this.documentClient.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } } }));
      items.push(...(answer.Responses?.[this.tableName] ?? []));
      pending = (answer.UnprocessedKeys?.[this.tableName]?.Keys as Array<Record<string, unknown>> | undefined) ?? [];
    }
    // Throttled past the retries: the batch fails and the queue delivers it again.
    if (pending.length > 0) throw new StoreUnavailableError(`touch read left ${pending.length} keys unprocessed`);
    const touches = items.map(touchOf);
    return touches.reduce<Touch | undefined>((newest, touch) => (newest === undefined || touch.at > newest.at ? touch : newest), undefined);
  }

  private async keepNewer(organizationId: string, personKey: string, touch: Touch): Promise<void> {
    const expiresAt = Math.floor(Date.parse(touch.at) / 1000) + touch.windowHours * 3600 + KEPT_AFTER_WINDOW_SECONDS;
    try {
      await this.documentClient.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...messagingKeys.touch(organizationId, personKey), ...touch, expiresAt },
          // ISO times of one format compare as strings: only a newer touch replaces the kept one.
          ConditionExpression: 'attribute_not_exists(pk) OR #at < :at',
          ExpressionAttributeNames: { '#at': 'at' },
          ExpressionAttributeValues: { ':at': touch.at },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }
}

function touchOf(item: Record<string, unknown>): Touch {
  const parsed = v.safeParse(touchItemSchema, item);
  if (!parsed.success) throw new MalformedMessagingItemError(`touch item ${String(item.pk)} is malformed: ${parsed.issues[0].message}`);
  const { campaignId, heldOut, ...rest } = parsed.output;
  return { ...rest, ...(campaignId === undefined ? {} : { campaignId }), ...(heldOut ? { heldOut } : {}) };
}
