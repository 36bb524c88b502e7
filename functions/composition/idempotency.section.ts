/** Idempotent accepts (Powertools over the idempotency table). */
import { PowertoolsIdempotencyGuard } from '../../shared/adapters/idempotency/powertools-idempotency-guard';
import { requireSetting } from '../../shared/config/app-config';
import { memoize, type CompositionContext } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';

export const idempotencySection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new PowertoolsIdempotencyGuard(dynamoDb.base, requireSetting(context.config.tableNames.idempotency, 'IDEMPOTENCY_TABLE')));
