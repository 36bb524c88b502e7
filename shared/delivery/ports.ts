/**
 * What the delivery-event processor (apply-webhook-batch.ts) needs from the outside world, and the
 * events it hands on. One Meta webhook POST is a batch of entries; the processor resolves each
 * change's owner from the phone number id (or the business account id of template events) and
 * hands each event to the store of the organization that owns it.
 */
import type { CallbackReference } from './callback-data';
import type { CustomerEvent } from '../customer-events/ports';
import type { MessagePricing } from './message-pricing';
import type { DeliveryStage } from './recipient-status';

/** One `statuses[]` element of a `messages` change. */
export interface StatusEvent {
  /** Meta's message id (wamid). */
  messageId: string;
  stage: DeliveryStage;
  /** Meta's timestamp of the event (not when it reached us). */
  timestamp: Date;
  /** Recipient's WhatsApp id (digits), or its business-scoped user id when Meta withholds the number. Personal data: never logged. */
  recipientId: string;
  /** Meta's `recipient_user_id`: the recipient's business-scoped user id, when the status names it. */
  recipientUserId?: string;
  /** Parsed `biz_opaque_callback_data` when it is one of ours. */
  reference?: CallbackReference;
  /** First element of `errors[]` on failed events. */
  error?: { code: number; title: string };
  /** Meta's `pricing` (on `sent` and one of `delivered`/`read`), category normalised (message-pricing.ts). */
  pricing?: MessagePricing;
}

/** One `messages[]` element of a `messages` change: a user wrote to a business number. */
export interface InboundMessage {
  messageId: string;
  /** The sender's WhatsApp id (digits); absent when Meta withholds the number (then `fromUserId` names the sender). */
  from?: string;
  /** Meta's `from_user_id`: the sender's business-scoped user id (every webhook since April 2026; older ones lack it). */
  fromUserId?: string;
  /** Meta's `from_parent_user_id`, for portfolios in a parent BSUID account. */
  parentUserId?: string;
  /** `contacts[].profile.name` of the sender, when given. */
  profileName?: string;
  /** `contacts[].profile.username`: display only, never an identifier. */
  username?: string;
  /**
   * A `user_changed_number` or `user_changed_user_id` system message (identity-change-message.ts): the
   * user's new BSUID, their (new) number when Meta shows it (`system.wa_id`), the new parent BSUID,
   * and the previous ids (`system.previous_*`, else the message's `from_user_id` / `from`).
   */
  userIdChange?: {
    userId: string;
    phoneNumber?: string;
    parentUserId?: string;
    previousUserId?: string;
    previousParentUserId?: string;
    previousPhoneNumber?: string;
  };
  timestamp: Date;
  /** Meta's message type (text, image, button, interactive, …). */
  type: string;
  /** Text of a text message, a button's text or an interactive reply's title, when there is one. */
  text?: string;
  /** Meta's `context.id`: the message this one replies to (a swipe-reply, or the message whose button was tapped). */
  context?: { messageId: string };
  /** A quick-reply tap: Meta's `button` (a template's quick reply: `payload`, `text`) or `interactive.button_reply` (`id` as payload, `title` as text). */
  button?: { payload: string; text: string };
  /** The business number that received it. */
  phoneNumberId: string;
  /** Its display number as digits (`metadata.display_phone_number`). */
  businessPhoneNumber: string;
  /**
   * Arrived on the `standby` field: another app (Meta Business Agent, a second partner) holds the
   * conversation. Recorded like any inbound message (contact, window, opt-out keywords, pairs);
   * nothing may answer it automatically (docs/DELIVERY-STATUS.md "Standby").
   */
  standby?: true;
}

/** `message_template_status_update`: a template's new state (APPROVED, PAUSED, DISABLED, REJECTED, …). */
export interface TemplateStatusUpdate {
  wabaId: string;
  templateId: string;
  name: string;
  language: string;
  /** Meta's `event`, upper-case. */
  status: string;
  /** Meta's `reason` or `other_info.title`, when given. */
  reason?: string;
  /** The entry's `time` (or the batch's arrival when absent). */
  at: Date;
}

/**
 * `message_template_quality_update` (a new quality score) or the completed form of
 * `template_category_update` (a new category). Meta's impending category notice is not one: it
 * changes nothing yet (docs/CUSTOMER-WEBHOOKS.md "template.updated").
 */
export interface TemplateAttributeUpdate {
  wabaId: string;
  templateId: string;
  name: string;
  language: string;
  change: 'quality' | 'category';
  /** Meta's previous score or category, upper-case; absent when Meta gave none. */
  previous?: string;
  /** The new score (GREEN, YELLOW, RED, UNKNOWN) or category (MARKETING, UTILITY, AUTHENTICATION), upper-case. */
  current: string;
  /** The entry's `time` (or the batch's arrival when absent). */
  at: Date;
}

export interface PhoneNumberOwner {
  organizationId: string;
  wabaId: string;
  /** The number's digits as the organization registered it (the inbound sink's sender number: no second read). */
  phoneNumber?: string;
}

/** Who owns what: the tenancy claims (module bridge). Undefined: nobody on this platform. */
export interface OwnerDirectory {
  ownerOfPhoneNumberId(phoneNumberId: string): Promise<PhoneNumberOwner | undefined>;
  ownerOfWaba(wabaId: string): Promise<{ organizationId: string } | undefined>;
}

export type ApplyResult = 'applied' | 'not-found';

/** Where a broadcast recipient's status event belongs: its job, chunk and index (callback data or WAMID record). */
export interface LedgerLocation {
  jobId: string;
  chunkIndex: number;
  index: number;
}

/**
 * What a status event did to a broadcast recipient: `applied` added a fact (a stage's first time,
 * a failure, a stage's pricing), `unchanged` added nothing (a duplicate, or a later copy of a
 * known stage), `not-found` never reached a record.
 */
export type LedgerApplyResult = 'applied' | 'unchanged' | 'not-found';

/**
 * What a status event did (LedgerDeliveryStore.applyEvents): a LedgerApplyResult, or
 * `applied-after-delivery`: a `read` fact added to a recipient whose `delivered` fact was already
 * recorded. Applied like `applied`; the person's touch is the delivery's (docs/OUTCOMES.md
 * "Attribution"), so nothing is written for it again.
 */
export type StatusApplyResult = LedgerApplyResult | 'applied-after-delivery';

/** What the processor reads of a job (LedgerDeliveryStore.jobOwner). */
export interface JobOwnerRecord {
  organizationId: string;
  phoneNumberId: string;
  recipientCount: number;
  campaignId?: string;
  /** The job's `attributionWindowHours` when it was given (docs/OUTCOMES.md "Attribution"); absent: the default, 72. */
  attributionWindowHours?: number;
  /** The job's template quick-reply buttons as accepted (index, text, the payload given): a tap's index is matched against them. */
  quickReplies?: readonly QuickReplyButton[];
}

/** A template's quick-reply button as a job sends it: Meta's `index`, its label and the payload the broadcast gave (else Meta sends the label). */
export interface QuickReplyButton {
  index: number;
  text?: string;
  payload?: string;
}

/** The broadcast ledger's side: events of sends made by the chunk worker. */
export interface LedgerDeliveryStore {
  /**
   * Owner of a job, for the tenant check, and its recipient count (events of an index outside it
   * are not the job's; a campaign's job: the span of its chunks' indexes); undefined when the job
   * does not exist (expired, discarded). `campaignId`: the campaign a campaign's job runs (its
   * `message.status` events carry it).
   */
  jobOwner(jobId: string): Promise<JobOwnerRecord | undefined>;
  /** Ledger entry that recorded this message id (its WAMID record), when the event carries no callback data of ours. */
  locateMessage(messageId: string): Promise<LedgerLocation | undefined>;
  /**
   * Adds the events' facts (first-seen time per stage, Meta's failure, pricing per stage) to the
   * job's tally items: one read of the items concerned, then one write per item that gains
   * anything, none for events that add nothing. An event on a recipient whose outcome carried no
   * message id (UNKNOWN) also records the id. Idempotent and order-independent; one result per
   * event, in order. Every index is within the job (the caller checked the recipient count).
   * Throws when a write failed (after the others settled): applying again is harmless. A `read`
   * added where `delivered` was known before it (this call's earlier events included) is
   * `applied-after-delivery`.
   */
  applyEvents(jobId: string, events: ReadonlyArray<{ location: LedgerLocation; event: StatusEvent }>): Promise<StatusApplyResult[]>;
}

/** A broadcast recipient's `delivered` fact just added: the person's touch (shared/outcomes/attribute-inbound.ts). */
export interface DeliveredRecipient {
  location: LedgerLocation;
  campaignId?: string;
  /** The job's `attributionWindowHours`; absent: the default. */
  attributionWindowHours?: number;
  /** Meta's time of the delivery. */
  at: Date;
  /** Meta's recipient id and, when the status names it, `recipient_user_id`. */
  personKeys: readonly string[];
}

/** What the processor reads to attribute an inbound message, shared with the batch's status events. */
export interface AttributionBatch {
  /** The job's owner read (cached per delivery of the queue). */
  jobOwnerOf(jobId: string): Promise<JobOwnerRecord | undefined>;
  /** The webhook batch was received before: customer events of facts already recorded are built again. */
  redelivered: boolean;
  /** When the webhook reached the platform: the customer events' `createdAt`. */
  receivedAt: Date;
}

/**
 * Replies, taps and STOPs attributed to the send that caused them (docs/OUTCOMES.md "Attribution"):
 * the outcomes module's use case behind a port, so the processor does not depend on it.
 */
export interface ReplyAttribution {
  /** Records each delivered person's latest touch (one job's deliveries). Idempotent (an older or equal touch changes nothing). */
  delivered(organizationId: string, deliveries: readonly DeliveredRecipient[]): Promise<void>;
  /** Attributes a recorded inbound message; answers the customer events of the facts it added. Idempotent. */
  inbound(organizationId: string, message: InboundMessage, batch: AttributionBatch): Promise<CustomerEvent[]>;
  /**
   * A `user_preferences` stop of marketing messages, attributed as an opt-out to the person's latest
   * touch within its window (a campaign's canary counts it: docs/CAMPAIGNS.md "Canary and halt
   * thresholds"). Idempotent. Absent: not attributed.
   */
  stoppedMarketing?(organizationId: string, personKeys: readonly string[], at: Date): Promise<void>;
}

/** The /upstream wrapper's side: events of sends made through /upstream. */
export interface UpstreamDeliveryStore {
  /** By callback data (`u1:<sendId>`), else by the message id the wrapper recorded for the organization. */
  applyEvent(organizationId: string, event: StatusEvent): Promise<ApplyResult>;
}

/** Inbound messages: v1 contacts and conversations (the 24-hour window), and message-id ownership. */
export interface InboundMessageSink {
  /**
   * Idempotent: a redelivered message changes nothing more. `senderPhoneNumber`: the receiving
   * number's digits when the owner lookup already read them (else the sink finds them).
   */
  recordInbound(organizationId: string, message: InboundMessage, senderPhoneNumber?: string): Promise<void>;
}

/** A user's two identities as one webhook event showed them both, at Meta's time of the event. */
export interface UserIdentityPair {
  /** Digits. */
  phoneNumber: string;
  /** The business-scoped user id. */
  userId: string;
  at: Date;
}

/** Meta's BSUID ↔ phone pairs (the inbox's contact book): one call per `messages` change that showed any. */
export interface IdentityPairSink {
  /**
   * Idempotent: a known pair changes nothing (and costs no write). `recheck` (a batch the queue
   * delivered before, or a replay): finish what a crash may have left of known pairs too.
   */
  recordPairs(organizationId: string, pairs: readonly UserIdentityPair[], options?: { recheck?: boolean }): Promise<void>;
}

/** The organization's opt-out list (the inbox's): recipients who stopped marketing messages (failure 131050). */
export interface OptOutRecorder {
  /** Idempotent: a number already on the list keeps its entry. */
  recordStoppedMarketing(organizationId: string, phoneNumber: string): Promise<void>;
}

/**
 * Meta's refusals of the business account that come as a `failed` status (131042, a payment problem,
 * among them): the broadcast module holds the job and the account's other running jobs until the
 * business resumes them. Given every broadcast recipient's failure; it decides which codes hold.
 */
export interface AccountRefusalSink {
  failedWith(jobId: string, error: { code: number; title: string }): Promise<void>;
}

/** Template states seen in events, so the next broadcast sees them before the cached list expires. */
export interface TemplateStatusSink {
  recordTemplateStatus(organizationId: string, update: TemplateStatusUpdate): Promise<void>;
  /** A quality or category change, overlaid by the template list and the next accept the same way. */
  recordTemplateAttribute(organizationId: string, update: TemplateAttributeUpdate): Promise<void>;
}

/** A user's marketing preference set inside WhatsApp (Meta's `user_preferences` webhook, category `marketing_messages`). */
export interface MarketingPreference {
  /** `wa_id`: the user's number, when Meta shows it. Personal data: never logged. */
  phoneNumber?: string;
  /** `user_id`: the user's BSUID (at least one of the two is given). */
  userId?: string;
  value: 'stop' | 'resume';
  /** Meta's time of the preference. */
  timestamp: Date;
}

/** The organization's opt-out list answering users' marketing preferences (the inbox's). */
export interface MarketingPreferenceSink {
  /** Idempotent, and the latest by Meta's time wins: a `stop` lists the user (source `user-preference`), a `resume` lifts it. */
  recordMarketingPreference(organizationId: string, preference: MarketingPreference): Promise<void>;
}
