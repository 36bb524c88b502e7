/**
 * In-memory stand-ins for the broadcast module's other ports (the stores of jobs are in
 * broadcast-stores/): the pacer's schedule, the queue, idempotency records, the service window,
 * template states and the messaging limit, with the same observable semantics as their adapters.
 */
import type { OutboundLane } from '../../shared/broadcast/outbound-lanes';
import type { OutboundMessage } from '../../shared/broadcast/chunk-message';
import { IdempotencyKeyInProgressError, IdempotencyKeyReusedError } from '../../shared/broadcast/errors';
import { messagingTierOf } from '../../shared/broadcast/messaging-tiers';
import type {
  IdempotencyGuard,
  MarketingMessagesOnboarding,
  MessagingTier,
  MessagingTiers,
  OutboundQueue,
  PortfolioReach,
  ReachBucket,
  SenderAccount,
  ServiceWindow,
  TemplateAttribute,
  TemplateState,
  TemplateStates,
} from '../../shared/broadcast/ports';
import { turnGranted, type AccountTurn, type AccountTurnRequest, type TurnAnswer } from '../../shared/sending/account-turn';
import type { SendPacer } from '../../shared/sending/ports';
import { copy } from './broadcast-stores/in-memory-broadcast-state';

/* --------------------------------------------------------------- pacer */

/** The pacer's schedule in memory: the same arithmetic as DynamoDbSendPacer. */
export class InMemorySendPacer implements SendPacer {
  readonly nextFreeAt = new Map<string, number>();
  readonly reservations: Array<{ accountKey: string; count: number; ratePerSecond: number; nowMs: number; start: number }> = [];
  readonly holds: Array<{ accountKey: string; untilMs: number }> = [];

  async reserve(accountKey: string, count: number, ratePerSecond: number, nowMs: number): Promise<number> {
    const durationMs = (count * 1000) / ratePerSecond;
    const next = this.nextFreeAt.get(accountKey);
    const start = next === undefined || next <= nowMs ? nowMs : next;
    this.nextFreeAt.set(accountKey, start + durationMs);
    this.reservations.push({ accountKey, count, ratePerSecond, nowMs, start });
    return start;
  }

  async holdUntil(accountKey: string, untilMs: number): Promise<void> {
    this.holds.push({ accountKey, untilMs });
    const next = this.nextFreeAt.get(accountKey);
    if (next === undefined || next < untilMs) this.nextFreeAt.set(accountKey, untilMs);
  }

  /** Where the schedule stands (tests read it; not part of the port). */
  async bookedUntil(accountKey: string): Promise<number | undefined> {
    return this.nextFreeAt.get(accountKey);
  }

  readonly turns = new Map<string, AccountTurn>();

  async takeTurn(accountKey: string, request: AccountTurnRequest): Promise<TurnAnswer> {
    const turn = this.turns.get(accountKey);
    const nextFreeAt = this.nextFreeAt.get(accountKey);
    if (turnGranted({ ...(turn ? { turn } : {}), ...(nextFreeAt !== undefined ? { nextFreeAt } : {}) }, request)) {
      this.turns.set(accountKey, { owner: request.owner, startedAt: request.nowMs, until: request.untilMs });
      return { granted: true };
    }
    return { granted: false, ...(turn ? { turn: { ...turn } } : {}), ...(nextFreeAt !== undefined ? { bookedUntil: nextFreeAt } : {}) };
  }
}

/* --------------------------------------------------------------- queue */

export class RecordingOutboundQueue implements OutboundQueue {
  readonly batches: Array<{ messages: OutboundMessage[]; delaySeconds?: number }> = [];
  failure?: Error;

  async enqueue(messages: readonly OutboundMessage[], options: { delaySeconds?: number } = {}): Promise<void> {
    if (this.failure) throw this.failure;
    this.batches.push({ messages: copy([...messages]), delaySeconds: options.delaySeconds });
  }

  readonly deferrals: Array<{ receiptHandle: string; delaySeconds: number; lane?: OutboundLane }> = [];

  async deferRedelivery(receiptHandle: string, delaySeconds: number, lane?: OutboundLane): Promise<void> {
    this.deferrals.push({ receiptHandle, delaySeconds, ...(lane ? { lane } : {}) });
  }

  get messages(): OutboundMessage[] {
    return this.batches.flatMap((batch) => batch.messages);
  }
}

/* --------------------------------------------------------- idempotency */

/** The IdempotencyGuard contract in memory (no expiry; in-progress until `work` settles). */
export class InMemoryIdempotencyGuard implements IdempotencyGuard {
  readonly records = new Map<string, { payloadHash: string; status: 'INPROGRESS' | 'COMPLETED'; result?: string }>();
  runs = 0;

  async run<T extends object>(key: string, payloadHash: string, work: () => Promise<T>, _options: { inProgressTimeoutMs: number }): Promise<T> {
    const record = this.records.get(key);
    if (record) {
      if (record.payloadHash !== payloadHash) throw new IdempotencyKeyReusedError();
      if (record.status === 'INPROGRESS') throw new IdempotencyKeyInProgressError();
      return JSON.parse(record.result!) as T;
    }
    this.records.set(key, { payloadHash, status: 'INPROGRESS' });
    this.runs += 1;
    try {
      const result = await work();
      this.records.set(key, { payloadHash, status: 'COMPLETED', result: JSON.stringify(result) });
      return result;
    } catch (error) {
      this.records.delete(key);
      throw error;
    }
  }
}

/** Inbound times by `<org>#<sender>#<customer>`; none recorded by default (the window is unknown). */
export class RecordedServiceWindow implements ServiceWindow {
  readonly lastInbound = new Map<string, Date>();
  readonly reads: string[] = [];

  record(organizationId: string, senderPhoneNumber: string, customerPhoneNumber: string, at: Date): void {
    this.lastInbound.set(`${organizationId}#${senderPhoneNumber}#${customerPhoneNumber}`, at);
  }

  async lastInboundAt(organizationId: string, senderPhoneNumber: string, customerPhoneNumber: string): Promise<Date | undefined> {
    const key = `${organizationId}#${senderPhoneNumber}#${customerPhoneNumber}`;
    this.reads.push(key);
    return this.lastInbound.get(key);
  }
}

/** The template-states adapter's semantics in memory: the newest event per template and language wins. */
export class InMemoryTemplateStates implements TemplateStates {
  readonly states = new Map<string, TemplateState>();
  reads = 0;

  async record(wabaId: string, state: TemplateState): Promise<boolean> {
    const key = `${wabaId}#${state.name}#${state.language}`;
    const current = this.states.get(key);
    if (current && current.at.getTime() >= state.at.getTime()) return false;
    this.states.set(key, { ...state });
    return true;
  }

  async statesOf(wabaId: string): Promise<TemplateState[]> {
    this.reads += 1;
    return [...this.states.entries()].filter(([key]) => key.startsWith(`${wabaId}#`)).map(([, state]) => ({ ...state }));
  }

  async stateOf(wabaId: string, name: string, language: string): Promise<TemplateState | undefined> {
    this.reads += 1;
    const state = this.states.get(`${wabaId}#${name}#${language}`);
    return state && { ...state };
  }

  readonly attributes = new Map<string, TemplateAttribute>();

  async recordAttribute(wabaId: string, attribute: TemplateAttribute): Promise<boolean> {
    const key = `${wabaId}#${attribute.name}#${attribute.language}#${attribute.kind}`;
    const current = this.attributes.get(key);
    if (current && current.at.getTime() > attribute.at.getTime()) return false;
    this.attributes.set(key, { ...attribute });
    return true;
  }

  async attributesOf(wabaId: string): Promise<TemplateAttribute[]> {
    this.reads += 1;
    return [...this.attributes.entries()].filter(([key]) => key.startsWith(`${wabaId}#`)).map(([, attribute]) => ({ ...attribute }));
  }
}

/* ------------------------------------------------------ messaging limit */

/** Tiers per phone number id (absent: TIER_UNLIMITED), mapped as the Graph reader maps them. */
export class FixedMessagingTiers implements MessagingTiers {
  readonly tiers = new Map<string, string>();
  async tierOf(sender: Pick<SenderAccount, 'phoneNumberId'>): Promise<MessagingTier> {
    return messagingTierOf(this.tiers.get(sender.phoneNumberId) ?? 'TIER_UNLIMITED');
  }
}

/* ------------------------------------------------ Marketing Messages API */

/** Meta's `marketing_messages_onboarding_status` per WABA id (absent: none, i.e. not onboarded); `failure` makes every read throw. */
export class FixedMarketingMessagesOnboarding implements MarketingMessagesOnboarding {
  readonly statuses = new Map<string, string>();
  failure?: Error;
  reads = 0;

  async statusOf(account: Pick<SenderAccount, 'wabaId'>): Promise<string | undefined> {
    this.reads += 1;
    if (this.failure) throw this.failure;
    return this.statuses.get(account.wabaId);
  }
}

/** The portfolio reach buckets in memory, with DynamoDbPortfolioReach's conditional version check. */
export class InMemoryPortfolioReach implements PortfolioReach {
  readonly buckets = new Map<string, ReachBucket>();
  writes = 0;
  conflicts = 0;
  /** Runs before each write is checked (e.g. to let a concurrent accept write first). */
  beforeWrite?: (businessId: string, bucket: ReachBucket) => void | Promise<void>;

  async bucketsOf(businessId: string, fromHour: string, toHour: string): Promise<ReachBucket[]> {
    return [...this.buckets]
      .filter(([key]) => key.startsWith(`${businessId}#`))
      .map(([, bucket]) => copyBucket(bucket))
      .filter((bucket) => bucket.hour >= fromHour && bucket.hour <= toHour)
      .sort((a, b) => a.hour.localeCompare(b.hour));
  }

  async writeBucket(businessId: string, bucket: ReachBucket, expectedVersion: number): Promise<boolean> {
    await this.beforeWrite?.(businessId, bucket);
    const key = `${businessId}#${bucket.hour}`;
    if ((this.buckets.get(key)?.version ?? 0) !== expectedVersion) {
      this.conflicts += 1;
      return false;
    }
    this.writes += 1;
    this.buckets.set(key, copyBucket(bucket));
    return true;
  }
}

/** A bucket whose bytes the caller cannot change afterwards (the store keeps its own). */
const copyBucket = (bucket: ReachBucket): ReachBucket => ({
  ...bucket,
  sketch: bucket.sketch.slice(),
  ...(bucket.byOrganization && { byOrganization: Object.fromEntries(Object.entries(bucket.byOrganization).map(([id, bytes]) => [id, bytes.slice()])) }),
});

/**
 * Messaging-limit ports under which every number is unlimited (nothing is counted), and no account
 * onboarded to the Marketing Messages API (an `auto` account sends through Cloud API): for tests of other concerns.
 */
export const unlimitedMessaging = () => ({
  messagingTiers: new FixedMessagingTiers(),
  portfolioReach: new InMemoryPortfolioReach(),
  marketingMessages: new FixedMarketingMessagesOnboarding(),
});
