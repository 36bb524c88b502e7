/** upstream-wrapper: tenancy (readWrite, token key), messaging (the send pacer, /upstream id records, ledger look-up by message id), rate limits, the Graph API. DynamoDB + KMS. */
import { jobStoreAdapter, recipientLedgerAdapter } from '../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import { logger } from '../../shared/observability/logger';
import type { TenancyServices } from '../../shared/tenancy/tenancy-services';
import { OwnedIdDirectory } from '../../shared/upstream/owned-ids';
import type { UpstreamWrapperDependencies } from '../../shared/upstream/ports';
import { graphTransportSection } from '../composition/cloud-api.section';
import { lazyPorts, sleep, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients, type DynamoDbClients } from '../composition/dynamodb-clients';
import { httpSection } from '../composition/http.section';
import { broadcastStoresSection, sendPacerSection, wrapperIdRecordsSection } from '../composition/messaging.section';
import { platformMessageIdsSection } from '../composition/module-bridges.section';
import { tenancySection } from '../composition/tenancy.section';
import { tokenCipherSection } from '../composition/token-cipher.section';

export interface UpstreamWrapperFunctionDependencies extends HttpPipelineDependencies {
  upstream: UpstreamWrapperDependencies;
}

export const upstreamWrapperSection =
  (context: CompositionContext, dynamoDb: DynamoDbClients, tenancy: () => TenancyServices) => (): UpstreamWrapperDependencies => {
    const { config } = context;
    const pacer = sendPacerSection(context, dynamoDb);
    const idRecords = wrapperIdRecordsSection(context, dynamoDb);
    const platformMessages = platformMessageIdsSection(broadcastStoresSection(context, dynamoDb, [recipientLedgerAdapter, jobStoreAdapter]));
    const wrapper = config.upstreamWrapper;
    return {
      get tenancy() {
        return tenancy();
      },
      graph: graphTransportSection(context),
      ownedIds: new OwnedIdDirectory(wrapper.ownedIdsTtlMs),
      get idRecords() {
        return idRecords();
      },
      get platformMessages() {
        return platformMessages();
      },
      get pacer() {
        return pacer();
      },
      clock: context.clock,
      ids: context.ids,
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
          // The chunk worker's retry policy (shared/sending/send-policy.ts).
          ...config.sendPolicy,
        },
      },
    };
  };

export function composeUpstreamWrapper(context: CompositionContext): UpstreamWrapperFunctionDependencies {
  const dynamoDb = dynamoDbClients(context);
  const tenancy = tenancySection(context, dynamoDb, { cipher: tokenCipherSection(context), cachedReads: true });
  return lazyPorts<UpstreamWrapperFunctionDependencies>({
    ...httpSection(context, dynamoDb, tenancy),
    upstream: upstreamWrapperSection(context, dynamoDb, tenancy),
  });
}
