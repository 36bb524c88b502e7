/**
 * Attribution of replies, quick-reply taps and STOP replies to the send that caused them
 * (docs/OUTCOMES.md "Attribution"), called by the delivery processor through its ReplyAttribution
 * port for each inbound message once it is recorded, and for each broadcast recipient's first
 * `delivered` fact (their touch).
 *
 * - Context: Meta's `context.id` names one of our messages → its ledger entry (the WAMID record)
 *   → the job, kept only when the job is the message owner's organization (another organization's
 *   message id is ignored). A reply, plus the tap (button index among the job's quick replies)
 *   and the STOP (an opt-out keyword) when the message is one. No window: the person answered that message.
 * - No context: the person's latest touch under any of their ids (number, BSUID) within its window
 *   after the touch → a reply via last touch. A held-out touch gets the same reply fact on its
 *   slot (the holdout's inbound), never a tap, a STOP nor a customer event: nothing was sent to them.
 *   A message with a context that is not one of our broadcast messages is not attributed.
 *
 * Cost per inbound message: with context, one read of the WAMID record and the job's owner read
 * (shared with the batch's status events of that job); without, one BatchGetItem of the touch keys.
 * Then one ADD per fact (OutcomeStore), none when there is nothing to attribute.
 */
import type { CustomerEvent } from '../customer-events/ports';
import type {
  AttributionBatch,
  DeliveredRecipient,
  InboundMessage,
  JobOwnerRecord,
  LedgerDeliveryStore,
  LedgerLocation,
  ReplyAttribution,
} from '../delivery/ports';
import { normalizeKeyword, type OptOutKeywords } from '../inbox/opt-outs';
import { DEFAULT_ATTRIBUTION_WINDOW_HOURS, MAX_KEPT_PAYLOAD, type OutcomeEvent } from './outcome-facts';
import { buttonTappedEvent, messageRepliedEvent, type AttributedReply } from './outcome-customer-events';
import type { OutcomeStore, Touch, TouchStore } from './ports';
import { tappedIndexOf } from './quick-replies';

export interface AttributionPorts {
  ledger: Pick<LedgerDeliveryStore, 'locateMessage'>;
  outcomes: OutcomeStore;
  touches: TouchStore;
  /** The organization-wide opt-out keywords (the inbox's configuration). */
  optOutKeywords: Pick<OptOutKeywords, 'optOut'>;
}

const HOUR_MS = 3_600_000;

/** A delivered recipient's touch: the job's window, Meta's time of the delivery. */
function touchOf({ location, campaignId, attributionWindowHours, at }: DeliveredRecipient): Touch {
  return {
    jobId: location.jobId,
    ...(campaignId === undefined ? {} : { campaignId }),
    chunkIndex: location.chunkIndex,
    index: location.index,
    at: at.toISOString(),
    windowHours: attributionWindowHours ?? DEFAULT_ATTRIBUTION_WINDOW_HOURS,
  };
}

/** Where an inbound message was attributed, with what the job says about taps. */
interface Target extends AttributedReply {
  quickReplies?: JobOwnerRecord['quickReplies'];
  heldOut?: true;
}

/**
 * The processor's ReplyAttribution over the outcomes module's stores.
 *
 * @example
 * const attribution = new InboundAttribution({ ledger, outcomes, touches, optOutKeywords });
 * await attribution.inbound('org_1', message, { jobOwnerOf: (jobId) => ledger.jobOwner(jobId), redelivered: false, receivedAt }); // [message.replied event]
 */
export class InboundAttribution implements ReplyAttribution {
  constructor(private readonly ports: AttributionPorts) {}

  async delivered(organizationId: string, deliveries: readonly DeliveredRecipient[]): Promise<void> {
    const touches = deliveries.flatMap((delivery) => {
      const personKeys = delivery.personKeys.filter((key) => key !== '');
      return personKeys.length === 0 ? [] : [{ personKeys, touch: touchOf(delivery) }];
    });
    if (touches.length > 0) await this.ports.touches.recordTouches(organizationId, touches);
  }

  async inbound(organizationId: string, message: InboundMessage, batch: AttributionBatch): Promise<CustomerEvent[]> {
    const target = message.context
      ? await this.byContext(organizationId, message.context.messageId, batch)
      : message.userIdChange
        ? undefined
        : await this.byLastTouch(organizationId, message);
    if (!target) return [];
    const facts = this.factsOf(target, message);
    const results = await this.ports.outcomes.recordOutcomes(
      target.location.jobId,
      facts.map((event) => ({ location: target.location, event })),
    );
    if (target.heldOut) return [];
    return facts.flatMap((event, position): CustomerEvent[] => {
      // Like message.status: only what added a fact, unless the batch is a redelivery (its first attempt may have stopped before publishing).
      if (results[position] !== 'applied' && !(results[position] === 'unchanged' && batch.redelivered)) return [];
      if (event.kind === 'reply') return [messageRepliedEvent(target, message, batch.receivedAt)];
      if (event.kind === 'button') return [buttonTappedEvent(target, message, { index: event.index, payload: event.payload }, batch.receivedAt)];
      return [];
    });
  }

  async stoppedMarketing(organizationId: string, personKeys: readonly string[], at: Date): Promise<void> {
    const keys = personKeys.filter((key) => key !== '');
    if (keys.length === 0) return;
    const touch = await this.ports.touches.latestTouch(organizationId, keys);
    // A held-out person was sent nothing: their stop is no campaign's.
    if (!touch || touch.heldOut) return;
    const touchedAt = Date.parse(touch.at);
    if (at.getTime() < touchedAt || at.getTime() > touchedAt + touch.windowHours * HOUR_MS) return;
    const location = { jobId: touch.jobId, chunkIndex: touch.chunkIndex, index: touch.index };
    await this.ports.outcomes.recordOutcomes(touch.jobId, [{ location, event: { kind: 'opt-out', at } }]);
  }

  /** Our message named by `context.id`, in the message owner's organization and within the job's recipients. */
  private async byContext(organizationId: string, messageId: string, batch: AttributionBatch): Promise<Target | undefined> {
    const location: LedgerLocation | undefined = await this.ports.ledger.locateMessage(messageId);
    if (!location) return undefined;
    const job = await batch.jobOwnerOf(location.jobId);
    if (!job || job.organizationId !== organizationId || location.index >= job.recipientCount) return undefined;
    return {
      location,
      via: 'context',
      repliedTo: messageId,
      ...(job.campaignId === undefined ? {} : { campaignId: job.campaignId }),
      ...(job.quickReplies === undefined ? {} : { quickReplies: job.quickReplies }),
    };
  }

  /** The person's latest touch under their number or BSUID, when the message came within its window after it. */
  private async byLastTouch(organizationId: string, message: InboundMessage): Promise<Target | undefined> {
    const keys = [message.from, message.fromUserId].filter((key): key is string => key !== undefined && key !== '');
    if (keys.length === 0) return undefined;
    const touch = await this.ports.touches.latestTouch(organizationId, keys);
    if (!touch) return undefined;
    const sentAt = message.timestamp.getTime();
    const touchedAt = Date.parse(touch.at);
    if (sentAt < touchedAt || sentAt > touchedAt + touch.windowHours * HOUR_MS) return undefined;
    return {
      location: { jobId: touch.jobId, chunkIndex: touch.chunkIndex, index: touch.index },
      via: 'last-touch',
      ...(touch.campaignId === undefined ? {} : { campaignId: touch.campaignId }),
      ...(touch.heldOut ? { heldOut: true as const } : {}),
    };
  }

  /** The reply, and for a sent recipient the tap and the STOP the message is. */
  private factsOf(target: Target, message: InboundMessage): OutcomeEvent[] {
    const at = message.timestamp;
    const facts: OutcomeEvent[] = [{ kind: 'reply', at, via: target.via }];
    if (target.heldOut) return facts;
    if (message.button && target.via === 'context') {
      const payload = message.button.payload.slice(0, MAX_KEPT_PAYLOAD);
      facts.push({ kind: 'button', at, index: tappedIndexOf(target.quickReplies, message.button), payload });
    }
    if (message.text !== undefined && this.ports.optOutKeywords.optOut.has(normalizeKeyword(message.text))) facts.push({ kind: 'opt-out', at });
    return facts;
  }
}
