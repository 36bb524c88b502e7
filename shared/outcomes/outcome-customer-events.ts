/**
 * The customer events of attributed replies and taps (docs/CUSTOMER-WEBHOOKS.md "Events"):
 * `message.replied` and `button.tapped`. Ids derive from the inbound message id, so a webhook Meta
 * or SQS delivers twice yields the same event ids (receivers dedupe on `X-Webhook-Id`).
 */
import { newCustomerEvent } from '../customer-events/event-envelope';
import type { CustomerEvent } from '../customer-events/ports';
import type { InboundMessage, LedgerLocation } from '../delivery/ports';
import type { ReplyAttribution } from './outcome-facts';

/** The attributed recipient and how the reply found them. */
export interface AttributedReply {
  location: LedgerLocation;
  campaignId?: string;
  via: ReplyAttribution;
  /** Our message id the reply names (Meta's `context.id`), when it came by context. */
  repliedTo?: string;
}

/** The fields both events share: the job, the recipient as `message.status` names them, the inbound message. */
function replyData(reply: AttributedReply, message: InboundMessage) {
  return {
    jobId: reply.location.jobId,
    ...(reply.campaignId === undefined ? {} : { campaignId: reply.campaignId }),
    recipientIndex: reply.location.index,
    recipient: message.from ?? message.fromUserId ?? null,
    recipientUserId: message.fromUserId ?? null,
    messageId: message.messageId,
    repliedTo: reply.repliedTo ?? null,
    via: reply.via,
    phoneNumberId: message.phoneNumberId,
    at: message.timestamp.toISOString(),
  };
}

/**
 * `message.replied`: an inbound message attributed to a broadcast recipient.
 *
 * @example messageRepliedEvent({ location: { jobId: 'pub_1', chunkIndex: 0, index: 4 }, via: 'context', repliedTo: 'wamid.A' }, message, receivedAt).type // 'message.replied'
 */
export function messageRepliedEvent(reply: AttributedReply, message: InboundMessage, createdAt: Date): CustomerEvent {
  return newCustomerEvent({ type: 'message.replied', sourceKey: `${reply.location.jobId}:${message.messageId}`, createdAt, data: replyData(reply, message) });
}

/**
 * `button.tapped`: a quick-reply tap attributed to a broadcast recipient, with the button's index (-1 when none of the job's matched) and payload.
 *
 * @example buttonTappedEvent(reply, message, { index: 1, payload: 'STOP-PROMO' }, receivedAt).data.button // { index: 1, payload: 'STOP-PROMO' }
 */
export function buttonTappedEvent(reply: AttributedReply, message: InboundMessage, button: { index: number; payload: string }, createdAt: Date): CustomerEvent {
  return newCustomerEvent({
    type: 'button.tapped',
    sourceKey: `${reply.location.jobId}:${message.messageId}`,
    createdAt,
    data: { ...replyData(reply, message), button: { ...button } },
  });
}
