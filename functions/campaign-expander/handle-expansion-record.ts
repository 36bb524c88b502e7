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
 * that outlasted the in-place retries) fails the record, and the expander resumes from the
 * checkpoint when it comes back. The first failure comes back after 1-2 s (redelivery-delay.ts), not
 * the queue's 6-minute visibility timeout: a fault that outlasted one invocation's retries is most
 * often over by then. Later failures keep the 6 minutes, so the five receives still span ~20 minutes
 * of a long outage before the record rests in the dead-letter queue (docs/OPERATIONS.md).
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
    if (receiveCount === 1) await redelivery.queue.defer(record.receiptHandle, redeliveryDelaySeconds(1, redelivery.random)).catch(() => undefined);
    throw error;
  } finally {
    logger.resetKeys();
  }
}
