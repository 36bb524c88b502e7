/**
 * Public data shapes of the Cloud API sandbox. Kept apart from the HTTP wiring so the state,
 * validation and route modules can share them without importing the server.
 */
import type { LatencySetting, LatencySettingInput } from './latency-distribution';
import type { WebhookDelivery, WebhookStats } from './webhook-poster';
import type { WebhookSettingsPatch, WebhookSettingsView } from './webhook-settings';

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export const TEMPLATE_STATUSES = ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED'] as const;

export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

/**
 * A WABA's `marketing_messages_onboarding_status`. Meta documents ELIGIBLE and ONBOARDED; the
 * sandbox adds NOT_ELIGIBLE for a business that may not use the Marketing Messages API. Only
 * ONBOARDED sends through it; the others fall back to Cloud API or are refused (STRICT).
 */
export const MARKETING_MESSAGES_ONBOARDING_STATUSES = ['ELIGIBLE', 'ONBOARDED', 'NOT_ELIGIBLE'] as const;
export type MarketingMessagesOnboardingStatus = (typeof MARKETING_MESSAGES_ONBOARDING_STATUSES)[number];

export interface SandboxPhoneNumber {
  id: string;
  /** Digits only, e.g. "15550001001"; the Graph API shows it formatted ("+1 555-000-1001"). */
  displayPhoneNumber: string;
  verifiedName: string;
  qualityRating?: string;
}

export interface SandboxTemplate {
  id: string;
  name: string;
  language: string;
  category: TemplateCategory;
  status: TemplateStatus;
  /** Meta's component shape: `{ type: 'BODY', text: 'Hi {{1}}' }` etc. */
  components: Array<Record<string, unknown>>;
  /** Meta's `parameter_format`; absent: NAMED when a text has `{{name}}` placeholders, else POSITIONAL. */
  parameterFormat?: 'POSITIONAL' | 'NAMED';
  /** Meta's `optimization_spec` (a max price: `bid_amount`, `bid_strategy`); MARKETING templates only, sent through `/marketing_messages` only. */
  optimizationSpec?: { bid_amount: number; bid_strategy?: string };
}

export interface SandboxBusinessAccount {
  wabaId: string;
  businessId: string;
  name: string;
  /** The upstream system-user token the sandbox accepts for this account. */
  accessToken: string;
  phoneNumbers: SandboxPhoneNumber[];
  templates: SandboxTemplate[];
  /** Where the account starts (and returns to on reset); default ELIGIBLE (not onboarded). */
  marketingMessagesOnboardingStatus?: MarketingMessagesOnboardingStatus;
}

export interface SandboxOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Accepted messages per phone number id in any one-second window; default 80 (Meta's default). */
  throughputPerSecond?: number;
  accounts?: SandboxBusinessAccount[];
  /**
   * Templates per `page_number` of `POST /{waba-id}/migrate_message_templates`; default 5.
   * Meta pages by 500, which no local fixture reaches, so the sandbox pages small enough for
   * tests and demos to see more than one page. A request's own `count` still overrides it.
   */
  templateMigrationPageSize?: number;
  /**
   * Milliseconds since the epoch; default Date.now. Rules that span hours or weeks (template edit
   * limits, the four-week block on reusing a deleted template's name, media URL expiry) read the
   * time from here so tests can move it instead of waiting.
   */
  now?: () => number;
  /**
   * Where to post Meta-shaped webhooks (statuses of accepted sends, inbound messages, template
   * status changes), signed with the app secret. Without it nothing is posted until
   * `POST /_sandbox/webhooks` sets a url and appSecret.
   */
  webhooks?: { url: string; appSecret: string };
  /** Where webhook delivery problems are logged (one line per failure streak); default console.warn. */
  log?: (line: string) => void;
}

export interface AcceptedMessage {
  messageId: string;
  phoneNumberId: string;
  /** The user's number (digits), or the BSUID of a send to a user whose number the sandbox does not know. */
  recipient: string;
  /** The `recipient` (BSUID or parent BSUID) of a send addressed by BSUID. */
  recipientUserId?: string;
  type: string;
  /** The full parsed request body. */
  body: unknown;
  receivedAt: string;
  /**
   * Present only for sends through `POST /{phone-number-id}/marketing_messages`:
   * `marketing_messages` when the Marketing Messages API delivered it (priced `marketing_lite`),
   * `cloud_api_fallback` when the account is not onboarded and Cloud API took it (priced `marketing`).
   */
  via?: 'marketing_messages' | 'cloud_api_fallback';
  /** Accepted, but its answer was never sent (`latency.timeoutRate` or a `recipientTimeouts` rule with `accepted`). */
  answerLost?: true;
}

export interface RecipientErrorRule {
  code: number;
  httpStatus?: number;
  message?: string;
  /** Answer the error this many times, then succeed; omitted = always. */
  times?: number;
}

/** Template pacing: answer this recipient's template sends with `message_status: held_for_quality_assessment` (the message is accepted; its webhooks follow as usual). */
export interface RecipientHoldRule {
  /** Hold this many template sends, then answer `accepted`; omitted = always. */
  times?: number;
}

export interface RecipientTimeoutRule {
  /** Hold this many requests, then answer normally; omitted = always. */
  times?: number;
  /**
   * The message is accepted (logged, its webhooks scheduled) and only the answer is lost, as when
   * Meta's response times out after the send went out: what reconciliation by callback data is for.
   * Default false: nothing is accepted.
   */
  accepted?: boolean;
}

/** Current fault-injection and throughput settings, as `GET /_sandbox/control` returns them. */
/** Meta's messaging limit values (TIER_50 and TIER_1K: the older per-number tiers some numbers still report). */
export const MESSAGING_LIMIT_TIERS = ['TIER_50', 'TIER_250', 'TIER_1K', 'TIER_2K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED'] as const;
export type MessagingLimitTier = (typeof MESSAGING_LIMIT_TIERS)[number];

export interface SandboxControlSettings {
  latencyMs: number;
  latencyJitterMs: number;
  /** 0..1: fraction of valid message sends answered with Meta's transient error (HTTP 500, code 2). */
  errorRate: number;
  /** 0..1: fraction of Graph requests never answered (socket held `timeoutHoldMs`, then dropped). */
  timeoutRate: number;
  timeoutHoldMs: number;
  /** Seed of the PRNG that decides `errorRate`, `timeoutRate` and latency jitter. */
  seed: number;
  /** Meta-like answer times and lost answers of accepted sends (latency-distribution.ts). */
  latency: LatencySetting;
  throughputPerSecond: number;
  throughputByPhoneNumberId: Record<string, number>;
  /** `whatsapp_business_manager_messaging_limit` per phone number id; absent: TIER_UNLIMITED. */
  messagingLimitByPhoneNumberId: Record<string, MessagingLimitTier>;
  recipientErrors: Record<string, RecipientErrorRule>;
  recipientTimeouts: Record<string, RecipientTimeoutRule>;
  recipientHolds: Record<string, RecipientHoldRule>;
  /** Errors for every send from a business number (phone number id) or any number of a WABA (WABA id): Meta's refusals of the account. */
  senderErrors: Record<string, RecipientErrorRule>;
  /** Countries (ISO 3166 alpha-2) where max-price templates are refused with 131065. */
  maxPriceUnavailableCountries: string[];
}

/**
 * A partial update merged into the current settings. Map entries merge key by key; a `null`
 * entry removes that key (e.g. `{ recipientErrors: { "15551234567": null } }`).
 */
export interface SandboxControlPatch {
  latencyMs?: number;
  latencyJitterMs?: number;
  errorRate?: number;
  timeoutRate?: number;
  timeoutHoldMs?: number;
  seed?: number;
  /** `null` or `{ distribution: "none" }` turns it off. */
  latency?: LatencySettingInput | null;
  throughputPerSecond?: number;
  throughputByPhoneNumberId?: Record<string, number | null>;
  messagingLimitByPhoneNumberId?: Record<string, MessagingLimitTier | null>;
  recipientErrors?: Record<string, RecipientErrorRule | null>;
  recipientTimeouts?: Record<string, RecipientTimeoutRule | null>;
  recipientHolds?: Record<string, RecipientHoldRule | null>;
  senderErrors?: Record<string, RecipientErrorRule | null>;
  /** Replaces the whole list (`[]` clears it). */
  maxPriceUnavailableCountries?: string[];
}

export interface InboundMessageInput {
  /** The business number that receives it. */
  phoneNumberId: string;
  /** The sender's WhatsApp number (digits, `+` allowed). */
  from: string;
  /** Optional on a tap (`button` or `interactive`). */
  text?: string;
  /** The sender's profile name; default "Sandbox User". */
  profileName?: string;
  /** A reply: Meta's `context.id`, one of the business's message ids. */
  context?: { id: string };
  /** A template quick-reply tap (needs `context`). */
  button?: { payload: string; text: string };
  /** An interactive message's reply button tapped (needs `context`). */
  interactive?: { type: 'button_reply'; button_reply: { id: string; title: string } };
}

export interface TemplateStatusInput {
  /** Needed only when two accounts have a template of that name and language. */
  wabaId?: string;
  name: string;
  language: string;
  status: TemplateStatus;
  reason?: string;
}

/** The webhook side of the sandbox, in process; the same as the `/_sandbox/webhooks` routes. */
export interface SandboxWebhooks {
  /** Same as `POST /_sandbox/webhooks`: merge settings (url, appSecret, delays, rates, faults). */
  configure(patch: WebhookSettingsPatch): WebhookSettingsView;
  settings(): WebhookSettingsView;
  /** Every POST attempt kept (the last 20,000), oldest first. */
  deliveries(): WebhookDelivery[];
  stats(): WebhookStats;
  /** Resolves true when nothing is scheduled or in flight, false after timeoutMs (default 60 s). */
  drain(timeoutMs?: number): Promise<boolean>;
  /** Same as `POST /_sandbox/webhooks/inbound`. */
  injectInbound(input: InboundMessageInput): { messageId: string };
  /** Same as `POST /_sandbox/webhooks/template-status`. */
  changeTemplateStatus(input: TemplateStatusInput): { id: string; name: string; language: string; status: TemplateStatus; notified: boolean };
  /** Same as `POST /_sandbox/webhooks/template-quality`: `{ name, language, quality, wabaId? }`. */
  changeTemplateQuality(input: { name: string; language: string; quality: string; wabaId?: string }): {
    id: string;
    previousQuality: string;
    quality: string;
    notified: boolean;
  };
  /** Same as `POST /_sandbox/webhooks/template-category`: `{ name, language, category, stage?, effectiveAt?, wabaId? }`. */
  changeTemplateCategory(input: {
    name: string;
    language: string;
    category: TemplateCategory;
    stage?: 'completed' | 'impending';
    effectiveAt?: number;
    wabaId?: string;
  }): {
    id: string;
    stage: 'completed' | 'impending';
    category: TemplateCategory;
    notified: boolean;
  };
}

export interface CloudApiSandbox {
  /** e.g. http://127.0.0.1:4010 — Graph paths are under `${url}/v25.0/...`. */
  url: string;
  port: number;
  /** Idempotent upsert by wabaId. */
  registerBusinessAccount(account: SandboxBusinessAccount): void;
  /** Same data as `GET /_sandbox/messages`. */
  acceptedMessages(): AcceptedMessage[];
  /** Same as `POST /_sandbox/control`, for in-process callers. */
  configure(patch: SandboxControlPatch): void;
  /** Same as `POST /_sandbox/templates/{id}/status`. */
  setTemplateStatus(templateId: string, status: TemplateStatus): void;
  /**
   * Same as `POST /_sandbox/accounts/{wabaId}/token-expired`: while set, every Graph call made
   * with that account's token answers OAuth error 190 "Session has expired" (the state a
   * connected account is in when it needs authorizing again). Cleared by reset or re-registration.
   */
  setTokenExpired(wabaId: string, expired: boolean): void;
  /** Same as `POST /_sandbox/accounts/{wabaId}/marketing-messages`: the account's MM API onboarding status. */
  setMarketingMessagesOnboarding(wabaId: string, status: MarketingMessagesOnboardingStatus): void;
  /** Same as `POST /_sandbox/users`: a user with a number (`phone`, `username`, `phoneWithheld`) or known only by BSUID (`businessId`). */
  registerUser(input: { phone?: string; username?: string; profileName?: string; phoneWithheld?: boolean; businessId?: string; country?: string }): {
    userId?: string;
  };
  /** Same as `POST /_sandbox/templates/{id}/pacing` (`holdMs`) and its DELETE (undefined). */
  setTemplatePacing(templateId: string, holdMs: number | undefined): void;
  /** Same as `POST /_sandbox/templates/{id}/syncing`: MM API sends of the template answer 134101 while set. */
  setTemplateSyncing(templateId: string, syncing: boolean): void;
  webhooks: SandboxWebhooks;
  /**
   * Clears accepted messages, control settings, throughput windows, expired tokens, scheduled
   * webhooks and their log, and webhook settings but the target; returns every account to its
   * registered Marketing Messages onboarding status and clears template syncing; keeps accounts.
   */
  reset(): void;
  close(): Promise<void>;
}
