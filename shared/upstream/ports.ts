/**
 * What the /upstream wrapper's use cases need, bound by functions/composition.ts.
 *
 * This file imports types from outside the module and from graph-transport.ts only, never from a
 * use case of the module: use cases import the ports, not the other way round (no type cycle).
 */
import type { SendPacer } from '../sending/ports';
import type { SendPolicySettings } from '../sending/send-policy';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { BusinessAccount } from '../tenancy/tenancy-entities';
import type { AccountDirectory } from '../tenancy/tenancy-stores';
import type { GraphTransport } from './graph-transport';

/** The slice of tenancy the wrapper uses: look-ups for the isolation checks, credentials, flagging. */
export interface WrapperTenancy {
  repository: Pick<AccountDirectory, 'getBusinessAccount' | 'listBusinessAccounts' | 'findPhoneNumberById' | 'listPhoneNumbers'>;
  /** Throws BusinessAccountNeedsAuthorizationError for a flagged account. */
  decryptBusinessAccountToken(account: BusinessAccount): Promise<string>;
  markBusinessAccountNeedsAuthorization(account: Pick<BusinessAccount, 'organizationId' | 'wabaId' | 'encryptedAccessToken'>): Promise<void>;
}

/** Structured log facts only: never bodies, tokens or recipients. */
export interface WrapperLog {
  warn(message: string, facts: Record<string, unknown>): void;
}

/**
 * Short-lived copies of an account's (or number's) id lists read upstream (templates: ids and
 * names; flows; QR codes), per Lambda container. `key` names the organization, owner and list.
 */
export interface OwnedIdLists {
  /** The list's values of one field, while fresh; undefined when absent or older than the TTL. */
  get(key: string, nowMs: number): OwnedIdList | undefined;
  set(key: string, list: OwnedIdList): void;
  /** Forgets every list of an owner (a WABA or a phone number) of the organization. */
  forget(organizationId: string, owner: string): void;
}

export interface OwnedIdList {
  /** Values by item field (`id`, `name`, `code`). */
  fields: ReadonlyMap<string, ReadonlySet<string>>;
  fetchedAt: number;
}

/** An id the organization created through the wrapper (or, later, received through webhooks). */
export interface WrapperIdRecord {
  organizationId: string;
  wabaId: string;
  phoneNumberId: string;
  id: string;
  recordedAt: Date;
}

export type UpstreamSendOutcome = 'SENT' | 'FAILED' | 'UNKNOWN';

/**
 * One send through /upstream (a message, a marketing message, one recipient of a bulk send),
 * recorded after the call under its `sendId`, the id its `u1:<sendId>` callback data names, so
 * Meta's status events find it even when the outcome was unknown (docs/DELIVERY-STATUS.md).
 */
export interface UpstreamSendRecord {
  organizationId: string;
  wabaId: string;
  phoneNumberId: string;
  sendId: string;
  /** The recipient as the caller wrote it. Personal data: never logged. */
  to: string;
  outcome: UpstreamSendOutcome;
  /** Meta's message id, when its answer carried one. */
  messageId?: string;
  /** The caller's own `biz_opaque_callback_data`, replaced by ours in what went to Meta. */
  customerCallbackData?: string;
  createdAt: Date;
}

/**
 * Media ids the organization uploaded and message ids it sent through the wrapper, so ids inside
 * message bodies can be checked against the organization (docs/UPSTREAM-WRAPPER.md, "Ids inside
 * message bodies"). An id of another organization reads as absent.
 */
export interface WrapperIdRecords {
  recordMedia(record: WrapperIdRecord): Promise<void>;
  /** `direction` is `received` for inbound messages (ReceivedMessageIds). */
  recordMessages(records: readonly WrapperIdRecord[], direction: 'sent' | 'received'): Promise<void>;
  /**
   * The send records, and the message id record (with its `sendId`) of each send Meta answered
   * with a message id, written together (one BatchWrite per 25 items).
   */
  recordSends(sends: readonly UpstreamSendRecord[]): Promise<void>;
  /** The ids among `mediaIds` recorded for the organization and not expired at `now`. */
  ownedMedia(organizationId: string, mediaIds: readonly string[], now: Date): Promise<ReadonlySet<string>>;
  /** The ids among `messageIds` recorded for the organization and not expired at `now`. */
  ownedMessages(organizationId: string, messageIds: readonly string[], now: Date): Promise<ReadonlySet<string>>;
}

/**
 * Ids of messages an organization received on its numbers (inbound webhooks), so a read receipt,
 * typing indicator, reply or reaction through /upstream may name them. Called by the inbound
 * sink (shared/delivery's InboundMessageSink adapter); idempotent.
 */
export interface ReceivedMessageIds {
  recordReceivedMessageId(organizationId: string, wabaId: string, phoneNumberId: string, messageId: string): Promise<void>;
}

/** Message ids the platform's other sends (broadcasts, free-form, earlier operations) recorded in their ledger. */
export interface PlatformMessageIds {
  /** The organization that sent the message, undefined when no ledger entry holds the id. */
  organizationOf(messageId: string): Promise<string | undefined>;
}

/** Retries, backoff and the rate-limit hold follow the shared sending policy (shared/sending/send-policy.ts). */
export interface BulkSendSettings extends SendPolicySettings {
  /** Recipients per call (100: fits API Gateway's 29 s at ordinary sending rates). */
  maxRecipients: number;
  /** No send starts later than this after the request arrived (25 s: leaves room inside 29 s). */
  budgetMs: number;
  /** Concurrent sends of one call. */
  concurrency: number;
}

export interface UpstreamWrapperSettings {
  /** The Graph base URL (media download URLs must be on it or on Meta's hosts). */
  graphBaseUrl: string;
  upstreamTimeoutMs: number;
  /** Pace of an account with no rate of its own. */
  defaultMessagesPerSecond: number;
  /** How long template and flow id lists of an account are reused for ownership checks. */
  ownedIdsTtlMs: number;
  bulk: BulkSendSettings;
}

export interface UpstreamWrapperDependencies {
  tenancy: WrapperTenancy;
  graph: GraphTransport;
  ownedIds: OwnedIdLists;
  idRecords: WrapperIdRecords;
  platformMessages: PlatformMessageIds;
  pacer: SendPacer;
  clock: Clock;
  /** Send ids (`snd_…`, time-ordered). */
  ids: IdGenerator;
  sleep(ms: number): Promise<void>;
  random(): number;
  log: WrapperLog;
  settings: UpstreamWrapperSettings;
}
