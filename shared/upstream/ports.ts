/** What the /upstream wrapper's use cases need, bound by functions/composition.ts. */
import type { SendPacer } from '../sending/ports';
import type { SendPolicySettings } from '../sending/send-policy';
import type { Clock } from '../ports/clock';
import type { BusinessAccount } from '../tenancy/tenancy-entities';
import type { TenancyRepository } from '../tenancy/tenancy-repository';
import type { GraphTransport } from './graph-transport';
import type { OwnedIdDirectory } from './owned-ids';

/** The slice of tenancy the wrapper uses: look-ups for the isolation checks, credentials, flagging. */
export interface WrapperTenancy {
  repository: Pick<TenancyRepository, 'getBusinessAccount' | 'listBusinessAccounts' | 'findPhoneNumberById' | 'listPhoneNumbers'>;
  /** Throws BusinessAccountNeedsAuthorizationError for a flagged account. */
  decryptBusinessAccountToken(account: BusinessAccount): Promise<string>;
  markBusinessAccountNeedsAuthorization(account: Pick<BusinessAccount, 'organizationId' | 'wabaId' | 'encryptedAccessToken'>): Promise<void>;
}

/** Structured log facts only: never bodies, tokens or recipients. */
export interface WrapperLog {
  warn(message: string, facts: Record<string, unknown>): void;
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
  ownedIds: OwnedIdDirectory;
  pacer: SendPacer;
  clock: Clock;
  sleep(ms: number): Promise<void>;
  random(): number;
  log: WrapperLog;
  settings: UpstreamWrapperSettings;
}
