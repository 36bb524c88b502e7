/**
 * Idempotency-Key handling on Powertools for AWS Lambda (idempotency utility): one conditional
 * write claims the key (carrying a claim token, see claim-token-persistence-layer.ts), the stored
 * result is replayed on retries, a different payload under the same key is refused (payload
 * validation), and an in-progress claim expires with the invocation so a crashed request does not
 * block its key.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyUnknownError,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import type { Context } from 'aws-lambda';
import { IDEMPOTENCY_WINDOW_HOURS, type IdempotencyGuard } from '../../broadcast/ports';
import { IdempotencyKeyInProgressError, IdempotencyKeyReusedError } from '../../broadcast/errors';
import { ClaimTokenPersistenceLayer } from './claim-token-persistence-layer';
import { classifyStoreFaults, storeFault } from '../dynamodb/dynamodb-errors';
import { StoreUnavailableError } from '../../ports/errors';

/** The contract asks for at least 24 hours; two days cover a retry across a day boundary (the window job-fan-out.ts checks jobs against). */
const KEY_LIFETIME_SECONDS = IDEMPOTENCY_WINDOW_HOURS * 3600;

interface GuardedCall {
  key: string;
  payloadHash: string;
  work: () => Promise<object>;
}

export class PowertoolsIdempotencyGuard implements IdempotencyGuard {
  private readonly persistenceStore: ClaimTokenPersistenceLayer;

  constructor(dynamodb: DynamoDBClient, tableName: string) {
    this.persistenceStore = new ClaimTokenPersistenceLayer(dynamodb, tableName);
    classifyStoreFaults(dynamodb);
  }

  async run<T extends object>(key: string, payloadHash: string, work: () => Promise<T>, options: { inProgressTimeoutMs: number }): Promise<T> {
    // A config per call: the in-progress expiry comes from this invocation's remaining time.
    const config = new IdempotencyConfig({
      eventKeyJmesPath: 'key',
      payloadValidationJmesPath: 'payloadHash',
      expiresAfterSeconds: KEY_LIFETIME_SECONDS,
      throwOnNoIdempotencyKey: true,
    });
    config.registerLambdaContext({ getRemainingTimeInMillis: () => options.inProgressTimeoutMs } as Context);
    const guarded = makeIdempotent(async (call: GuardedCall) => call.work(), {
      persistenceStore: this.persistenceStore,
      config,
    });
    try {
      return (await guarded({ key, payloadHash, work })) as T;
    } catch (error) {
      if (error instanceof IdempotencyAlreadyInProgressError) throw new IdempotencyKeyInProgressError();
      if (error instanceof IdempotencyValidationError) throw new IdempotencyKeyReusedError();
      // Powertools' own errors wrap store failures (the SDK error as cause); the work's errors pass unchanged.
      throw error instanceof IdempotencyUnknownError ? storeFault(error, StoreUnavailableError, 'Idempotency store') : error;
    }
  }
}
