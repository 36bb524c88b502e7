/**
 * The platform's Meta app settings (tenancy table, decrypted with the token cipher and cached five
 * minutes) and the metaEvents queue. DynamoDB, SQS; KMS through the cipher the caller passes.
 */
import { DynamoDbMetaAppSettings } from '../../shared/adapters/dynamodb/dynamodb-meta-app-settings';
import { SqsDeadLetterReplay, SqsMetaEventQueue } from '../../shared/adapters/sqs/sqs-meta-events';
import { requireSetting } from '../../shared/config/app-config';
import type { TokenCipher } from '../../shared/crypto/token-cipher';
import { bindMetaAppServices, secretSourceOf, type MetaAppServices } from '../../shared/meta-app/meta-app-services';
import { MetaAppSecretsCache, type MetaAppSecretPorts } from '../../shared/meta-app/meta-app-settings';
import type { MetaAppSecretSource, MetaEventQueue } from '../../shared/meta-app/ports';
import { WebhookSourceGuard } from '../../shared/meta-app/webhook-source-guard';
import { routeGuards } from '../../runtime-contract/route-guards';
import { memoize, type CompositionContext } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';
import { sqsClient } from './sqs-client';

const metaEventsQueueUrl = (context: CompositionContext) => requireSetting(context.config.queueUrls.metaEvents, 'META_EVENTS_QUEUE_URL');

function metaAppSecretPorts(context: CompositionContext, dynamoDb: DynamoDbClients, cipher: () => TokenCipher): () => MetaAppSecretPorts {
  return memoize(() => {
    const settings = new DynamoDbMetaAppSettings(dynamoDb.document, requireSetting(context.config.tableNames.tenancy, 'TENANCY_TABLE'));
    return {
      settings,
      get cipher() {
        return cipher();
      },
      clock: context.clock,
      secretsCache: new MetaAppSecretsCache(),
    };
  });
}

/** What the webhook endpoint checks against. */
export function metaAppSecretsSection(context: CompositionContext, dynamoDb: DynamoDbClients, cipher: () => TokenCipher): () => MetaAppSecretSource {
  const ports = metaAppSecretPorts(context, dynamoDb, cipher);
  return memoize(() => secretSourceOf(ports()));
}

/** The endpoint's source guard (one per function environment): refusals per source, and the configured source ranges. */
export function webhookSourceGuardSection(context: CompositionContext): () => WebhookSourceGuard {
  const refusals = routeGuards['meta-webhook'].perSourceRefusals;
  return memoize(() => new WebhookSourceGuard({ refusals, sourceRanges: context.config.metaWebhook.sourceRanges }));
}

export function metaEventQueueSection(context: CompositionContext): () => MetaEventQueue {
  const sqs = sqsClient(context);
  return memoize(() => new SqsMetaEventQueue(sqs(), metaEventsQueueUrl(context)));
}

/** The operators' side: configure, describe, replay the dead-letter queue. */
export function metaAppServicesSection(context: CompositionContext, dynamoDb: DynamoDbClients, cipher: () => TokenCipher): () => MetaAppServices {
  const ports = metaAppSecretPorts(context, dynamoDb, cipher);
  const sqs = sqsClient(context);
  return memoize(() =>
    bindMetaAppServices({
      ...ports(),
      deadLetters: () => {
        const deadLetterUrl = context.config.deadLetterQueueUrls.metaEvents;
        return deadLetterUrl ? new SqsDeadLetterReplay(sqs(), deadLetterUrl, metaEventsQueueUrl(context)) : undefined;
      },
    }),
  );
}
