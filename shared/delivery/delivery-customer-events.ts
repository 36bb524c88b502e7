/**
 * The customer events (docs/CUSTOMER-WEBHOOKS.md "Events") that Meta's webhooks give rise to, built
 * from what the processor applied. Ids derive from the fact (customerEventId), so a batch Meta or
 * SQS delivers twice yields the same event ids and receivers dedupe on `X-Webhook-Id`.
 *
 * `message.status` carries `sequence`, the precedence rank of recipient-status.ts (sent 1, failed 2,
 * delivered 3, read 4): a receiver that keeps the highest sequence per message sees exactly the
 * status this platform reports, whatever order the events come in (a `failed` after `delivered`
 * has a lower sequence and is dropped; `read` without `delivered` simply wins).
 */
import { newCustomerEvent } from '../customer-events/event-envelope';
import type { CustomerEvent } from '../customer-events/ports';
import type { InboundMessage, StatusEvent, TemplateAttributeUpdate, TemplateStatusUpdate } from './ports';
import type { DeliveryStage } from './recipient-status';

const SEQUENCE: Record<DeliveryStage, number> = { sent: 1, failed: 2, delivered: 3, read: 4 };

/** Where the status belongs: a recipient of a broadcast-ledger job, or an /upstream send. */
export type StatusSubject = { kind: 'ledger'; jobId: string; index: number; campaignId?: string } | { kind: 'upstream' };

export function messageStatusEvent(subject: StatusSubject, event: StatusEvent, phoneNumberId: string, now: Date): CustomerEvent {
  const source = subject.kind === 'ledger' ? `${subject.jobId}:${subject.index}` : `upstream:${event.messageId}`;
  return newCustomerEvent({
    type: 'message.status',
    sourceKey: `${source}:${event.stage}`,
    createdAt: now,
    data: {
      jobId: subject.kind === 'ledger' ? subject.jobId : null,
      // Only on a campaign's job's recipients (docs/CUSTOMER-WEBHOOKS.md): other events are unchanged.
      ...(subject.kind === 'ledger' && subject.campaignId !== undefined ? { campaignId: subject.campaignId } : {}),
      recipientIndex: subject.kind === 'ledger' ? subject.index : null,
      recipient: event.recipientId,
      // The business-scoped user id Meta names (always for a send addressed by it): docs/CUSTOMER-WEBHOOKS.md.
      recipientUserId: event.recipientUserId ?? null,
      messageId: event.messageId,
      phoneNumberId,
      status: event.stage.toUpperCase(),
      sequence: SEQUENCE[event.stage],
      metaTimestamp: event.timestamp.toISOString(),
      metaErrorCode: event.error?.code ?? null,
      metaErrorTitle: event.error?.title ?? null,
      // Meta's pricing of this event (sent, and one of delivered/read); null when it carried none.
      pricing: event.pricing ? { ...event.pricing } : null,
    },
  });
}

export function messageReceivedEvent(message: InboundMessage, now: Date): CustomerEvent {
  return newCustomerEvent({
    type: 'message.received',
    sourceKey: message.messageId,
    createdAt: now,
    data: {
      messageId: message.messageId,
      // The number only when Meta gave it (a user known only by BSUID has none); the BSUID whenever given.
      ...(message.from === undefined ? {} : { from: message.from }),
      fromUserId: message.fromUserId ?? null,
      profileName: message.profileName ?? null,
      to: message.businessPhoneNumber,
      phoneNumberId: message.phoneNumberId,
      type: message.type,
      text: message.text ?? null,
      metaTimestamp: message.timestamp.toISOString(),
      // Another app holds the conversation (Meta's `standby` field): the customer's systems must not answer it automatically.
      ...(message.standby ? { standby: true } : {}),
    },
  });
}

export function templateStatusEvent(update: TemplateStatusUpdate, now: Date): CustomerEvent {
  return newCustomerEvent({
    type: 'template.status',
    sourceKey: `${update.wabaId}:${update.templateId}:${update.language}:${update.status}:${update.at.toISOString()}`,
    createdAt: now,
    data: {
      wabaId: update.wabaId,
      templateId: update.templateId,
      templateName: update.name,
      language: update.language,
      status: update.status,
      reason: update.reason ?? null,
      metaTimestamp: update.at.toISOString(),
    },
  });
}

/**
 * `template.updated`: a template's quality score or category changed (docs/CUSTOMER-WEBHOOKS.md).
 * The changed one is `{ previous, current }` (previous null when Meta gave none), the other null.
 *
 * @example
 * templateUpdatedEvent({ wabaId: '102', templateId: '7', name: 'promo', language: 'en', change: 'category',
 *   previous: 'UTILITY', current: 'MARKETING', at }, now).data.category // { previous: 'UTILITY', current: 'MARKETING' }
 */
export function templateUpdatedEvent(update: TemplateAttributeUpdate, now: Date): CustomerEvent {
  const transition = { previous: update.previous ?? null, current: update.current };
  return newCustomerEvent({
    type: 'template.updated',
    sourceKey: `${update.wabaId}:${update.templateId}:${update.language}:${update.change}:${update.current}:${update.at.toISOString()}`,
    createdAt: now,
    data: {
      wabaId: update.wabaId,
      templateId: update.templateId,
      templateName: update.name,
      language: update.language,
      change: update.change,
      quality: update.change === 'quality' ? transition : null,
      category: update.change === 'category' ? transition : null,
      metaTimestamp: update.at.toISOString(),
    },
  });
}
