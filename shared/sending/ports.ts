/**
 * What sending needs from the outside world: the Cloud API (Meta's WhatsApp Graph API) and the
 * shared per-account send pacer. Adapters live in shared/adapters (graph-api, dynamodb).
 * Use cases see outcomes, not HTTP: a send is accepted, definitely rejected (retryable or not),
 * or of unknown outcome.
 */
import type { AccountTurnRequest, TurnAnswer } from './account-turn';

export interface GraphError {
  message: string;
  type: string;
  code: number;
  error_subcode?: number;
  fbtrace_id?: string;
  error_data?: unknown;
}

export type SendOutcome =
  /** `held`: Meta took the message but holds it for quality assessment (template pacing, `message_status: held_for_quality_assessment`). */
  | { kind: 'accepted'; messageId: string; held?: true }
  /** Meta answered with an error: the message was not sent. `retryable` per `isRetryableRejection`. */
  | { kind: 'rejected'; httpStatus: number; error: GraphError; retryable: boolean }
  /** No answer we can trust (timeout, connection reset, 502/504): it may or may not have been sent. */
  | { kind: 'unknown'; reason: string };

export type Rejection = Extract<SendOutcome, { kind: 'rejected' }>;

export interface UpstreamTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  /** `POSITIONAL` or `NAMED` (Meta echoes it upper-case); absent from older answers. */
  parameter_format?: string;
  /** Why Meta rejected the template (`NONE` when it did not); read for the `status=all` template list. */
  rejected_reason?: string;
  /** Meta's `quality_score` (`score`: GREEN, YELLOW, RED, UNKNOWN); absent when Meta gives none. */
  quality_score?: { score?: string; [key: string]: unknown };
  components: Array<{ type: string; text?: string; format?: string; [key: string]: unknown }>;
  /** Meta's max price of a marketing template (`bid_amount`, `bid_strategy`); shared/broadcast/template-max-price.ts. */
  optimization_spec?: { bid_amount?: unknown; bid_strategy?: unknown; [key: string]: unknown };
  /** The older name of `optimization_spec` (before 2026-06-18), read the same way. */
  bid_spec?: { bid_amount?: unknown; bid_strategy?: unknown; [key: string]: unknown };
  /**
   * Not Meta's: the platform's tracked-link base (CLICK_BASE_URL) the template catalog stamps on every
   * template it reads, so whoever reads its requirements knows which URL buttons are tracked links.
   */
  clickBaseUrl?: string;
}

export interface UpstreamPhoneNumber {
  id: string;
  display_phone_number: string;
  verified_name?: string;
  [key: string]: unknown;
}

export interface UpstreamCall {
  accessToken: string;
}

/**
 * Which endpoint a send goes to: absent or `messages` is Cloud API's `POST /{phone-number-id}/messages`,
 * `marketing_messages` the Marketing Messages API's `POST /{phone-number-id}/marketing_messages`
 * (same body syntax and answer; marketing templates only).
 */
export interface SendEndpoint {
  api?: 'messages' | 'marketing_messages';
}

/** The Cloud API port: the send, and the reads broadcasts need (templates, numbers, a number's messaging limit, an account's Marketing Messages API onboarding). */
export interface CloudApiClient {
  listTemplates(wabaId: string, call: UpstreamCall): Promise<UpstreamTemplate[]>;
  listPhoneNumbers(wabaId: string, call: UpstreamCall): Promise<UpstreamPhoneNumber[]>;
  /** The number's `whatsapp_business_manager_messaging_limit` as Meta answers it (e.g. `TIER_250`); undefined when absent. */
  messagingLimitOf(phoneNumberId: string, call: UpstreamCall): Promise<string | undefined>;
  /** The business account's `marketing_messages_onboarding_status` as Meta answers it (e.g. `ONBOARDED`, `ELIGIBLE`); undefined when absent. */
  marketingMessagesOnboardingOf(wabaId: string, call: UpstreamCall): Promise<string | undefined>;
  /** Sends through `/messages`, or through `/marketing_messages` when `endpoint.api` says so. */
  sendMessage(phoneNumberId: string, body: Record<string, unknown>, call: UpstreamCall, endpoint?: SendEndpoint): Promise<SendOutcome>;
}

/**
 * Shares a business account's send rate between every sender of it (chunk workers, /upstream
 * bulk sends), in any Lambda: a reservation hands out a disjoint block of time slots.
 */
export interface SendPacer {
  /** Reserves `count` sends; returns the epoch ms of the first slot; slots are 1000/rate ms apart. */
  reserve(accountKey: string, count: number, ratePerSecond: number, nowMs: number): Promise<number>;
  /** Pushes the account's next free slot to at least `untilMs` (after a rate-limit answer). */
  holdUntil(accountKey: string, untilMs: number): Promise<void>;
  /**
   * Takes the account's turn for a chunk by `turnGranted`'s rule (account-turn.ts), atomically
   * against every other taker; a refusal carries the turn and the schedule as they stand.
   */
  takeTurn(accountKey: string, request: AccountTurnRequest): Promise<TurnAnswer>;
}
