import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Environment } from '../../shared/config/app-config';
import { logger } from '../../shared/observability/logger';
import { functionMetrics } from '../../shared/observability/metrics';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { withRetriedStorePorts } from '../composition/store-retries';
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

export const createHandler = (env: Environment, overrides?: ServiceOverrides) => {
  const dependencies = composeFunction('campaign-expander', env, composeCampaignExpander, overrides);
  const metrics = functionMetrics('campaign-expander', env);
  const retryBudget = new RetryBudget(defaultRetryBudgetSettings);
  /**
   * Partial batch responses: a failed expansion message comes back alone (and resumes from its
   * checkpoint). Store faults are first retried in place, as the chunk worker's are: a failed
   * message would wait out the queue's visibility timeout (minutes) before the campaign goes on.
   */
  return middy(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const invocation = { remainingTimeMs: () => context.getRemainingTimeInMillis(), sleep, random: Math.random };
    const handleRecord = async (record: SQSRecord): Promise<void> => {
      await handleExpansionRecord(withRetriedStorePorts(dependencies(), expanderStorePorts, invocation, { budget: retryBudget }), record);
    };
    const processor = new BatchProcessor(EventType.SQS);
    return processPartialResponse(event, handleRecord, processor, { context });
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics));
};

export const handler = createHandler(process.env);
