/**
 * What the broadcast use cases need from the outside world. Adapters live in shared/adapters.
 * The stores of jobs (jobs, job control, the recipient ledger, chunk progress) are in
 * broadcast-stores.ts, re-exported here so every port of the module has one import path.
 */
import type { OutboundMessage } from './chunk-message';
import type { OutboundLane } from './outbound-lanes';
import type { MarketingMessagesSetting } from '../tenancy/tenancy-entities';

export type * from './broadcast-stores';

export interface Sender {
  phoneNumber: string;
  phoneNumberId: string;
  wabaId: string;
}

export interface SenderAccount extends Sender {
  organizationId: string;
  /** Decrypted upstream token; lives in memory only. */
  accessToken: string;
  /** Pace of sends for the whole business account. */
  messagesPerSecond: number;
  /** Meta's business portfolio owning the account: the scope of its messaging limit. */
  businessId: string;
  /** The account's Marketing Messages API setting (marketing-messages-route.ts); absent: `auto`. */
  marketingMessages?: MarketingMessagesSetting;
  /** `false`: the organization turned the US marketing guard off (us-marketing-guard.ts); absent: on. */
  usMarketingGuard?: false;
}

export interface SenderDirectory {
  /** Throws NoBusinessAccountError when the organization has none connected. */
  listSenders(organizationId: string): Promise<Sender[]>;
  /** Throws SenderNotOwnedError or BusinessAccountIncompleteError. */
  resolveSender(organizationId: string, phoneNumber: string): Promise<SenderAccount>;
  /** Credentials and pace of a business account, for workers. */
  accountOf(organizationId: string, wabaId: string): Promise<{ accessToken: string; messagesPerSecond: number }>;
}

export interface OutboundQueue {
  enqueue(messages: readonly OutboundMessage[], options?: { delaySeconds?: number }): Promise<void>;
  /**
   * Brings a failed delivery back after `delaySeconds` instead of the queue's full visibility timeout;
   * `lane`: the queue it was received from (outbound-lanes.ts; absent: `bulk`).
   */
  deferRedelivery(receiptHandle: string, delaySeconds: number, lane?: OutboundLane): Promise<void>;
}

/**
 * How long an Idempotency-Key's record is kept (the contract asks for at least 24 hours; two days
 * cover a retry across a day boundary). A keyed job older than this is not retried but named (job-fan-out.ts).
 */
export const IDEMPOTENCY_WINDOW_HOURS = 48;

export interface IdempotencyGuard {
  /**
   * Runs `work` once per key. A retry with the same key and payload hash gets the stored
   * result; while the first runs → IdempotencyKeyInProgressError; another payload →
   * IdempotencyKeyReusedError.
   */
  run<T extends object>(key: string, payloadHash: string, work: () => Promise<T>, options: { inProgressTimeoutMs: number }): Promise<T>;
}

export type { Clock } from '../ports/clock';

/** Wallet, prices and subscription of an organization, for the earlier (charged) operations. */
export interface BillingPort {
  hasActiveSubscription(organizationId: string, now: Date): Promise<boolean>;
  /** Price of one message to a country calling code, in micro-units; undefined when not priced. */
  priceOf(countryCallingCode: string, category: string): Promise<number | undefined>;
  /** Debits without overdraft (throws InsufficientCreditsError); returns balances in micro-units. */
  debit(organizationId: string, amountMicros: number): Promise<{ oldBalanceMicros: number; newBalanceMicros: number }>;
  credit(organizationId: string, amountMicros: number): Promise<void>;
  balanceOf(organizationId: string): Promise<number>;
}

/** Campaign names of the earlier send-bulk are unique per organization. */
export interface BroadcastNameRegistry {
  /** True when the name was free (now taken by `jobId`), false when another broadcast has it. */
  claim(organizationId: string, broadcastName: string, jobId: string): Promise<boolean>;
  release(organizationId: string, broadcastName: string, jobId: string): Promise<void>;
}

/**
 * WhatsApp's customer-service window as recorded from inbound webhooks (the inbox, through a module
 * bridge). Undefined: nothing recorded for the pair, i.e. unknown (not "closed").
 */
export interface ServiceWindow {
  /** When the customer (a recipient key: a phone's digits or a BSUID) last wrote to the organization's `senderPhoneNumber`. */
  lastInboundAt(organizationId: string, senderPhoneNumber: string, customerKey: string): Promise<Date | undefined>;
}

/** A template's state as Meta last reported it by event (`message_template_status_update`). */
export interface TemplateState {
  name: string;
  language: string;
  /** APPROVED, PAUSED, DISABLED, REJECTED, … (upper case, as Meta names them). */
  status: string;
  reason?: string;
  templateId: string;
  /** Meta's time of the event. */
  at: Date;
}

/** Template states recorded from Meta's events, per business account (the messaging table). */
export interface TemplateStates {
  /** Records the state unless one with a later or equal time is recorded. True when written. */
  record(wabaId: string, state: TemplateState): Promise<boolean>;
  /** Every recorded state of the account's templates (strongly consistent). */
  statesOf(wabaId: string): Promise<TemplateState[]>;
  /** The recorded state of one template (strongly consistent); undefined when none is recorded. */
  stateOf(wabaId: string, name: string, language: string): Promise<TemplateState | undefined>;
  /**
   * Records a template's quality or category from Meta's event unless a later one of the same kind
   * is recorded (an equal time is written: Meta's times are whole seconds, so two changes in one
   * second keep the later arrival). Kept apart from the status: each kind has its own newest event.
   */
  recordAttribute(wabaId: string, attribute: TemplateAttribute): Promise<boolean>;
  /** Every recorded quality and category of the account's templates (strongly consistent). */
  attributesOf(wabaId: string): Promise<TemplateAttribute[]>;
}

/** What Meta's `message_template_quality_update` and `template_category_update` events set. */
export type TemplateAttributeKind = 'quality' | 'category';

/** A template's quality score (GREEN, YELLOW, RED, UNKNOWN) or category (MARKETING, UTILITY, …) as Meta last reported it by event. */
export interface TemplateAttribute {
  name: string;
  language: string;
  templateId: string;
  kind: TemplateAttributeKind;
  /** Upper case, as Meta names it. */
  value: string;
  /** Meta's time of the event. */
  at: Date;
}

/**
 * The organization's suppression list (opt-outs), answered by the inbox: recipients on it are
 * refused at accept time by broadcasts and bulk sends (FAILED `OPTED_OUT`, never queued or charged),
 * and again at send time by the chunk worker (FAILED `OPTED_OUT`, never sent).
 */
export interface SuppressionList {
  /** Which of `phoneNumbers` (international digits, as given) are on the organization's list, matched by opt-out key (shared/recipients/opt-out-key.ts). */
  suppressedAmong(organizationId: string, phoneNumbers: readonly string[]): Promise<ReadonlySet<string>>;
}

/** A number's messaging limit as Meta reports it (`whatsapp_business_manager_messaging_limit`). */
/** Media the organization uploaded through /upstream (`POST /upstream/{phoneNumberId}/media`): a broadcast may name only those ids. */
export interface UploadedMedia {
  /** The ids among `mediaIds` recorded for the organization and not expired at `now`. */
  ownedMedia(organizationId: string, mediaIds: readonly string[], now: Date): Promise<ReadonlySet<string>>;
}

export interface MessagingTier {
  /** Meta's value, e.g. `TIER_250`. */
  tier: string;
  /** Unique recipients per moving 24 h for the whole business portfolio; undefined: unlimited. */
  limit?: number;
}

/** The messaging limit of a sender's number (the Graph API, cached briefly: messaging-tiers.ts). */
export interface MessagingTiers {
  tierOf(sender: Pick<SenderAccount, 'phoneNumberId' | 'accessToken'>): Promise<MessagingTier>;
}

/** Meta's Marketing Messages API onboarding of a business account (the Graph API, cached briefly: marketing-messages-onboarding.ts). */
export interface MarketingMessagesOnboarding {
  /** `marketing_messages_onboarding_status` (e.g. `ONBOARDED`, `ELIGIBLE`); undefined when Meta gives none. Throws when the read fails. */
  statusOf(account: Pick<SenderAccount, 'wabaId' | 'accessToken'>): Promise<string | undefined>;
}

/** One hour of a business portfolio's recipients: a serialized reach sketch (reach-sketch.ts). */
export interface ReachBucket {
  /** The hour, `YYYY-MM-DDTHH` (UTC). */
  hour: string;
  /** Everyone the portfolio reached in the hour, whichever organization sent: what the limit counts. */
  sketch: Uint8Array;
  /**
   * Each organization's own recipients of the hour (a serialized sketch per organization id): what a
   * dry run's `newRecipients` and a refusal's "new" count against, so neither tells one organization
   * of a shared portfolio whom another reached. Absent on buckets written before it existed.
   */
  byOrganization?: Readonly<Record<string, Uint8Array>>;
  /** Incremented by every write; the next write is conditional on it. */
  version: number;
}

/** Unique recipients per business portfolio in hourly buckets (the messaging table). */
export interface PortfolioReach {
  /** The portfolio's buckets with an hour in [fromHour, toHour] (a consistent read). */
  bucketsOf(businessId: string, fromHour: string, toHour: string): Promise<ReachBucket[]>;
  /**
   * Writes the bucket as version `expectedVersion + 1` when its stored version is still
   * `expectedVersion` (0: no bucket yet); false when another write came first.
   */
  writeBucket(businessId: string, bucket: ReachBucket, expectedVersion: number): Promise<boolean>;
}

/**
 * The one-time trigger of a scheduled job (EventBridge Scheduler on AWS, in-process timers
 * locally): at `at` it fires the job (fire-scheduled-job.ts). Registering the same job again
 * replaces nothing and fails nothing (a retried accept with the same Idempotency-Key).
 */
export interface JobFiringScheduler {
  scheduleFiring(jobId: string, at: Date): Promise<void>;
  /** Removes the trigger if it is still there (best effort: the firing re-checks cancellation anyway). */
  cancelFiring(jobId: string): Promise<void>;
}

/**
 * A scheduled job's held chunk messages and the due index (messaging table: items `HELD#<chunk>#<part>`
 * under the job; sparse gsi2 `SCHEDULED` / `<scheduledAt>#<jobId>` on the job item until it fired).
 */
export interface ScheduledJobStore {
  /** Stores the job's chunk messages (already split to fit SQS) instead of queueing them. */
  holdMessages(jobId: string, messages: readonly OutboundMessage[]): Promise<void>;
  heldMessages(jobId: string): Promise<OutboundMessage[]>;
  /**
   * Sets `firedAt` once (a repeat keeps the first time) unless the job was cancelled before any
   * firing. `stillDue`: the job is still in the due index (no firing finished yet). NOT_FOUND: no
   * such job, or a job that was never scheduled.
   */
  markFired(jobId: string, now: Date): Promise<{ fired: true; stillDue: boolean } | { fired: false; reason: 'NOT_FOUND' | 'CANCELLED' }>;
  /** Takes the job out of the due index (a no-op when it is not there or does not exist). */
  removeFromDueIndex(jobId: string): Promise<void>;
  /** Ids of jobs still in the due index with `scheduledAt` at or before `until`, oldest first, at most `limit`. */
  dueJobs(until: Date, limit: number): Promise<string[]>;
}

/**
 * Whether an organization may send now, as tenancy says (shared/module-bridges/tenancy-organization-standing.ts):
 * a scheduled job of a suspended organization must not fire.
 */
export interface OrganizationStanding {
  /** True while an operator has the organization suspended. */
  isSuspended(organizationId: string): Promise<boolean>;
}
