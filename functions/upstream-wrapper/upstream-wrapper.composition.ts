/** upstream-wrapper: tenancy (readWrite, token key), messaging (the send pacer), rate limits, the Graph API. DynamoDB + KMS. */
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import { logger } from '../../shared/observability/logger';
import type { TenancyServices } from '../../shared/tenancy/tenancy-services';
import { OwnedIdDirectory } from '../../shared/upstream/owned-ids';
import type { UpstreamWrapperDependencies } from '../../shared/upstream/ports';
import { graphTransportSection } from '../composition/cloud-api.section';
import { lazyPorts, sleep, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients, type DynamoDbClients } from '../composition/dynamodb-clients';
import { httpSection } from '../composition/http.section';
import { sendPacerSection } from '../composition/messaging.section';
import { tenancySection } from '../composition/tenancy.section';
import { tokenCipherSection } from '../composition/token-cipher.section';

export interface UpstreamWrapperFunctionDependencies extends HttpPipelineDependencies {
  upstream: UpstreamWrapperDependencies;
}

export const upstreamWrapperSection = (context: CompositionContext, dynamoDb: DynamoDbClients, tenancy: () => TenancyServices) => (): UpstreamWrapperDependencies => {
  const { config } = context;
  const pacer = sendPacerSection(context, dynamoDb);
  const wrapper = config.upstreamWrapper;
  return {
    get tenancy() {
      return tenancy();
    },
    graph: graphTransportSection(context),
    ownedIds: new OwnedIdDirectory(wrapper.ownedIdsTtlMs),
    get pacer() {
      return pacer();
    },
    clock: context.clock,
    sleep,
    random: Math.random,
    log: { warn: (message, facts) => logger.warn(message, facts) },
    settings: {
      graphBaseUrl: config.upstream.baseUrl,
      upstreamTimeoutMs: config.upstream.timeoutMs,
      defaultMessagesPerSecond: config.sending.defaultMessagesPerSecond,
      ownedIdsTtlMs: wrapper.ownedIdsTtlMs,
      bulk: {
        maxRecipients: wrapper.bulkMaxRecipients,
        budgetMs: wrapper.bulkBudgetMs,
        concurrency: wrapper.bulkConcurrency,
        // Same retry policy as the chunk worker's sends.
        maxAttempts: config.worker.maxAttempts,
        backoff: { baseMs: config.worker.backoffBaseMs, maxMs: config.worker.backoffMaxMs },
        rateLimitHoldMs: config.worker.rateLimitHoldMs,
      },
    },
  };
};

export function composeUpstreamWrapper(context: CompositionContext): UpstreamWrapperFunctionDependencies {
  const dynamoDb = dynamoDbClients(context);
  const tenancy = tenancySection(context, dynamoDb, { cipher: tokenCipherSection(context) });
  return lazyPorts<UpstreamWrapperFunctionDependencies>({
    ...httpSection(context, dynamoDb, tenancy),
    upstream: upstreamWrapperSection(context, dynamoDb, tenancy),
  });
}
