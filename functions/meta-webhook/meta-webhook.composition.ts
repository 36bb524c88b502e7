/** meta-webhook: Meta app settings (tenancy read, token key decrypt), the metaEvents queue. DynamoDB + KMS + SQS. */
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import type { MetaAppSecretSource, MetaEventQueue } from '../../shared/meta-app/ports';
import type { WebhookSourceGuard } from '../../shared/meta-app/webhook-source-guard';
import { lazyPorts, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { httpSection } from '../composition/http.section';
import { metaAppSecretsSection, metaEventQueueSection, webhookSourceGuardSection } from '../composition/meta-app.section';
import { tenancyReaderSection } from '../composition/tenancy.section';
import { tokenCipherSection } from '../composition/token-cipher.section';

export interface MetaWebhookDependencies extends HttpPipelineDependencies {
  metaApp: MetaAppSecretSource;
  metaEvents: MetaEventQueue;
  webhookSources: WebhookSourceGuard;
}

export function composeMetaWebhook(context: CompositionContext): MetaWebhookDependencies {
  const dynamoDb = dynamoDbClients(context);
  return lazyPorts<MetaWebhookDependencies>({
    // The pipeline's part: its routes carry no credential and no rate class, so neither the
    // authenticator nor the rate limiter (whose table this function is not granted) is ever built.
    ...httpSection(context, dynamoDb, tenancyReaderSection(context, dynamoDb)),
    metaApp: metaAppSecretsSection(context, dynamoDb, tokenCipherSection(context)),
    metaEvents: metaEventQueueSection(context),
    webhookSources: webhookSourceGuardSection(context),
  });
}
