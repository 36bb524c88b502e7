import type { SQSRecord } from 'aws-lambda';
import { expandCampaign, type ExpandCampaignDependencies, type ExpansionOutcome } from '../../shared/campaigns/expand-campaign';
import { decodeExpansionMessage } from '../../shared/campaigns/expansion-message';
import { logger } from '../../shared/observability/logger';

/**
 * One campaign-expansion message: the campaign expanded as far as this invocation's budget goes
 * (expand-campaign.ts), which re-queues it itself when there is more. A failure (a store outage)
 * fails the record: SQS delivers it again and the expander resumes from the checkpoint; after five
 * receives it rests in the dead-letter queue (docs/OPERATIONS.md).
 */
export async function handleExpansionRecord(dependencies: ExpandCampaignDependencies, record: SQSRecord): Promise<ExpansionOutcome> {
  const message = decodeExpansionMessage(record.body);
  logger.appendKeys({
    organizationId: message.organizationId,
    campaignId: message.campaignId,
    receiveCount: Number(record.attributes.ApproximateReceiveCount ?? 1),
  });
  try {
    const outcome = await expandCampaign(dependencies, message);
    logger.info('campaign expansion', { outcome });
    return outcome;
  } finally {
    logger.resetKeys();
  }
}
