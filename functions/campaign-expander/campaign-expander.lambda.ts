import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { parseStoreTimeoutConfig, type Environment } from '../../shared/config/app-config';
import { logger } from '../../shared/observability/logger';
import { functionMetrics } from '../../shared/observability/metrics';
import type { CompositionContext, ServiceOverrides } from '../composition/composition-context';
import { expansionRedeliverySection } from '../composition/expansion-redelivery.section';
import { composeFunction } from '../composition/function-composition';
import { storeRetryMarginMs, withRetriedStorePorts } from '../composition/store-retries';
import { defaultRetryBudgetSettings, RetryBudget } from '../../shared/ports/store-retry';
import type { ExpandCampaignDependencies } from '../../shared/campaigns/expand-campaign';
import { composeCampaignExpander } from './campaign-expander.composition';
import { handleExpansionRecord } from './handle-expansion-record';

/**
 * The campaign-expansion queue's consumer: one campaign per message, expanded page by page
 * (docs/CAMPAIGNS.md "How a campaign runs"). `overrides`: the local runtime's tests pass their
 * clock (a campaign waiting for the messaging limit's window); Lambda passes none.
 */
/** The expander's ports whose calls are store calls (the Cloud API's answers are not retried here). */
const expanderStorePorts = [
  'campaigns',
  'claims',
  'members',
  'contactBook',
  'optOuts',
  'broadcasts',
  'queue',
  'expansions',
  'portfolioReach',
  'events',
] as const satisfies ReadonlyArray<keyof ExpandCampaignDependencies>;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The expander's ports, and the queue's redelivery for a record that fails (handle-expansion-record.ts). */
const composeExpanderWithRedelivery = (context: CompositionContext) => ({
  ports: composeCampaignExpander(context),
  redelivery: expansionRedeliverySection(context),
});

export const createHandler = (env: Environment, overrides?: ServiceOverrides) => {
  const composition = composeFunction('campaign-expander', env, composeExpanderWithRedelivery, overrides);
  const metrics = functionMetrics('campaign-expander', env);
  const retryBudget = new RetryBudget(defaultRetryBudgetSettings);
  const marginMs = storeRetryMarginMs(parseStoreTimeoutConfig(env));
  /**
   * Partial batch responses: a failed expansion message comes back alone (and resumes from its
   * checkpoint). Store faults are first retried in place, as the chunk worker's are; a message that
   * still fails comes back after seconds (handle-expansion-record.ts), not the queue's visibility timeout.
   */
  return middy(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const invocation = { remainingTimeMs: () => context.getRemainingTimeInMillis(), sleep, random: Math.random };
    const handleRecord = async (record: SQSRecord): Promise<void> => {
      const { ports, redelivery } = composition();
      const retried = withRetriedStorePorts(ports, expanderStorePorts, invocation, { budget: retryBudget, marginMs });
      await handleExpansionRecord(retried, record, { queue: redelivery(), random: Math.random });
    };
    const processor = new BatchProcessor(EventType.SQS);
    return processPartialResponse(event, handleRecord, processor, { context });
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics));
};

export const handler = createHandler(process.env);
