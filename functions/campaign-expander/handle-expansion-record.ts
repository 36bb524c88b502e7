import type { SQSRecord } from 'aws-lambda';
import { expandCampaign, type ExpandCampaignDependencies, type ExpansionOutcome } from '../../shared/campaigns/expand-campaign';
import { decodeExpansionMessage } from '../../shared/campaigns/expansion-message';
import { logger } from '../../shared/observability/logger';
import { redeliveryDelaySeconds } from '../composition/redelivery-delay';

/** Brings a failed record back after a delay instead of the queue's visibility timeout (shared/adapters/sqs/sqs-redelivery.ts). */
export interface ExpansionRedelivery {
  defer(receiptHandle: string, delaySeconds: number): Promise<void>;
}

/**
 * One campaign-expansion message: the campaign expanded as far as this invocation's budget goes
 * (expand-campaign.ts), which re-queues it itself when there is more. A failure (a store outage
 * that outlasted the in-place retries) fails the record, and the record comes back after 1-2 s,
 * then later each time (redelivery-delay.ts), not after the queue's 6-minute visibility timeout: the
 * expander resumes from the checkpoint. After five receives it rests in the dead-letter queue
 * (docs/OPERATIONS.md).
 */
export async function handleExpansionRecord(
  dependencies: ExpandCampaignDependencies,
  record: SQSRecord,
  redelivery: { queue: ExpansionRedelivery; random: () => number },
): Promise<ExpansionOutcome> {
  const message = decodeExpansionMessage(record.body);
  const receiveCount = Number(record.attributes.ApproximateReceiveCount ?? 1);
  logger.appendKeys({ organizationId: message.organizationId, campaignId: message.campaignId, receiveCount });
  try {
    const outcome = await expandCampaign(dependencies, message);
    logger.info('campaign expansion', { outcome });
    return outcome;
  } catch (error) {
    // Best effort: when the visibility cannot be changed either, the queue's own timeout brings it back.
    await redelivery.queue.defer(record.receiptHandle, redeliveryDelaySeconds(receiveCount, redelivery.random)).catch(() => undefined);
    throw error;
  } finally {
    logger.resetKeys();
  }
}
