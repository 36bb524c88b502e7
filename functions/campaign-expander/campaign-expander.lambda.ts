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
import { composeCampaignExpander } from './campaign-expander.composition';
import { handleExpansionRecord } from './handle-expansion-record';

/**
 * The campaign-expansion queue's consumer: one campaign per message, expanded page by page
 * (docs/CAMPAIGNS.md "How a campaign runs"). `overrides`: the local runtime's tests pass their
 * clock (a campaign waiting for the messaging limit's window); Lambda passes none.
 */
export const createHandler = (env: Environment, overrides?: ServiceOverrides) => {
  const dependencies = composeFunction('campaign-expander', env, composeCampaignExpander, overrides);
  const metrics = functionMetrics('campaign-expander', env);
  const handleRecord = async (record: SQSRecord): Promise<void> => {
    await handleExpansionRecord(dependencies(), record);
  };
  /** Partial batch responses: a failed expansion message comes back alone (and resumes from its checkpoint). */
  return middy(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const processor = new BatchProcessor(EventType.SQS);
    return processPartialResponse(event, handleRecord, processor, { context });
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics));
};

export const handler = createHandler(process.env);
