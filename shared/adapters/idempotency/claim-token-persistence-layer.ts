/**
 * Powertools' DynamoDB persistence layer, with the in-progress claim made safe against SDK retries.
 *
 * The library claims a key with one conditional put. When the table applies that put but the
 * answer is lost (a timeout), the SDK sends it again; the retry fails its own condition, and the
 * library reads the record it just wrote as someone else's claim: the request answers 409 "already
 * in progress" against itself, and the work never runs. Here every put carries a random claim
 * token; on a conditional failure the record is read back and, when it carries this put's token,
 * the claim is ours. Reading, completing and deleting records stay the library's own.
 */
import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { IdempotencyItemAlreadyExistsError, IdempotencyRecordStatus } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import type { IdempotencyRecordStatusValue } from '@aws-lambda-powertools/idempotency/types';
import { withResolvedHandlers } from '../sdk/resolved-handlers';

/** Attribute names of the idempotency table (those of the library, the TTL attribute of ours). */
const attributes = {
  keyAttr: 'pk',
  expiryAttr: 'expiresAt',
  inProgressExpiryAttr: 'in_progress_expiration',
  statusAttr: 'status',
  dataAttr: 'data',
  validationKeyAttr: 'validation',
} as const;
const CLAIM_TOKEN_ATTR = 'claimToken';

export class ClaimTokenPersistenceLayer extends DynamoDBPersistenceLayer {
  private readonly documentClient: DynamoDBDocumentClient;

  constructor(
    dynamodb: DynamoDBClient,
    private readonly table: string,
  ) {
    super({ tableName: table, awsSdkV3Client: dynamodb, ...attributes });
    this.documentClient = withResolvedHandlers(DynamoDBDocumentClient.from(dynamodb, { marshallOptions: { removeUndefinedValues: true } }));
  }

  protected override async _putRecord(record: IdempotencyRecord): Promise<void> {
    const claimToken = randomUUID();
    const item = {
      [attributes.keyAttr]: record.idempotencyKey,
      [attributes.expiryAttr]: record.expiryTimestamp,
      [attributes.statusAttr]: record.getStatus(),
      [attributes.inProgressExpiryAttr]: record.inProgressExpiryTimestamp,
      [attributes.validationKeyAttr]: this.isPayloadValidationEnabled() ? record.payloadHash : undefined,
      [CLAIM_TOKEN_ATTR]: claimToken,
    };
    const now = Date.now();
    try {
      await this.documentClient.send(
        new PutCommand({
          TableName: this.table,
          Item: item,
          // The library's condition: a new key, an expired record, or an in-progress claim whose invocation ran out.
          ConditionExpression:
            'attribute_not_exists(#id) OR #expiry < :now OR (#status = :inprogress AND attribute_exists(#in_progress_expiry) AND #in_progress_expiry < :now_in_millis)',
          ExpressionAttributeNames: {
            '#id': attributes.keyAttr,
            '#expiry': attributes.expiryAttr,
            '#in_progress_expiry': attributes.inProgressExpiryAttr,
            '#status': attributes.statusAttr,
          },
          ExpressionAttributeValues: { ':now': now / 1000, ':now_in_millis': now, ':inprogress': IdempotencyRecordStatus.INPROGRESS },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // A consistent read rather than ReturnValuesOnConditionCheckFailure, which dynalite ignores.
      const existing = await this.readItem(record.idempotencyKey);
      if (existing?.[CLAIM_TOKEN_ATTR] === claimToken) return;
      throw new IdempotencyItemAlreadyExistsError(
        `Failed to put record for already existing idempotency key: ${record.idempotencyKey}`,
        existing && recordOf(existing),
      );
    }
  }

  private async readItem(idempotencyKey: string): Promise<Record<string, unknown> | undefined> {
    const result = await this.documentClient.send(
      new GetCommand({ TableName: this.table, Key: { [attributes.keyAttr]: idempotencyKey }, ConsistentRead: true }),
    );
    return result.Item;
  }
}

const recordOf = (item: Record<string, unknown>) =>
  new IdempotencyRecord({
    idempotencyKey: item[attributes.keyAttr] as string,
    status: item[attributes.statusAttr] as IdempotencyRecordStatusValue,
    expiryTimestamp: item[attributes.expiryAttr] as number | undefined,
    inProgressExpiryTimestamp: item[attributes.inProgressExpiryAttr] as number | undefined,
    responseData: item[attributes.dataAttr] as IdempotencyRecord['responseData'],
    payloadHash: item[attributes.validationKeyAttr] as string | undefined,
  });
