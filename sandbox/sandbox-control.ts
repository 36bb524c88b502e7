/**
 * Fault-injection and throughput settings (`/_sandbox/control`) and the decisions drawn from
 * them on each request.
 *
 * Rates and jitter use a seeded PRNG (see seeded-random.ts), re-seeded whenever the settings
 * are reset or `seed` is set, so a given sequence of requests meets the same faults every run.
 * Per-recipient rules are looked up in Maps: O(1) on the send path.
 */
import { fail, isRecord, nonNegative, optionalTimes, rate, recipientKey, takeRule, wholeNumber } from './control-values';
import { LatencyModel, NO_LATENCY, parseLatencySetting } from './latency-distribution';
import { seededRandom } from './seeded-random';
import {
  MESSAGING_LIMIT_TIERS,
  type MessagingLimitTier,
  type RecipientErrorRule,
  type RecipientHoldRule,
  type RecipientTimeoutRule,
  type SandboxControlPatch,
  type SandboxControlSettings,
} from './sandbox-types';

const DEFAULT_SEED = 1;
const DEFAULT_TIMEOUT_HOLD_MS = 60_000;

function mapEntries(value: unknown, name: string): Array<[string, unknown]> {
  const keyedBy =
    name === 'throughputByPhoneNumberId' || name === 'messagingLimitByPhoneNumberId'
      ? 'phone number id'
      : name === 'senderErrors'
        ? 'phone number id or WABA id'
        : 'recipient';
  if (!isRecord(value)) fail(`${name} must be an object keyed by ${keyedBy}`);
  return Object.entries(value);
}

function parseErrorRule(value: unknown, name: string): RecipientErrorRule {
  if (!isRecord(value)) fail(`${name} must be an object`);
  const rule: RecipientErrorRule = { code: wholeNumber(value.code, `${name}.code`) };
  if (value.httpStatus !== undefined) {
    const status = wholeNumber(value.httpStatus, `${name}.httpStatus`);
    if (status < 400 || status > 599) fail(`${name}.httpStatus must be between 400 and 599`);
    rule.httpStatus = status;
  }
  if (value.message !== undefined) {
    if (typeof value.message !== 'string') fail(`${name}.message must be a string`);
    rule.message = value.message;
  }
  const times = optionalTimes(value.times, `${name}.times`);
  if (times !== undefined) rule.times = times;
  return rule;
}

function parseMessagingLimit(value: unknown, name: string): MessagingLimitTier {
  if (typeof value !== 'string' || !(MESSAGING_LIMIT_TIERS as readonly string[]).includes(value))
    fail(`${name} must be one of ${MESSAGING_LIMIT_TIERS.join(', ')}`);
  return value as MessagingLimitTier;
}

function parseTimeoutRule(value: unknown, name: string): RecipientTimeoutRule {
  if (!isRecord(value)) fail(`${name} must be an object`);
  const times = optionalTimes(value.times, `${name}.times`);
  if (value.accepted !== undefined && typeof value.accepted !== 'boolean') fail(`${name}.accepted must be a boolean`);
  return { ...(times === undefined ? {} : { times }), ...(value.accepted === true ? { accepted: true } : {}) };
}

/** A whole list of ISO 3166 alpha-2 codes (`["DE"]`; `[]` clears it). */
function parseCountries(value: unknown, name: string): Set<string> {
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string' && /^[A-Z]{2}$/.test(entry))) {
    fail(`${name} must be a list of ISO 3166 alpha-2 country codes, e.g. ["DE"]`);
  }
  return new Set(value as string[]);
}

function parseHoldRule(value: unknown, name: string): RecipientHoldRule {
  if (!isRecord(value)) fail(`${name} must be an object`);
  const times = optionalTimes(value.times, `${name}.times`);
  return times === undefined ? {} : { times };
}

export class SandboxControl {
  private latencyMs = 0;
  private latencyJitterMs = 0;
  private errorRate = 0;
  private timeoutRate = 0;
  private timeoutHoldMs = DEFAULT_TIMEOUT_HOLD_MS;
  private seed = DEFAULT_SEED;
  private random = seededRandom(DEFAULT_SEED);
  /** Meta-like answer times and lost answers (`latency`); none by default. */
  private latency = new LatencyModel(NO_LATENCY);
  private throughputPerSecond: number;
  private readonly throughputByPhoneNumberId = new Map<string, number>();
  private readonly messagingLimitByPhoneNumberId = new Map<string, MessagingLimitTier>();
  private readonly recipientErrors = new Map<string, RecipientErrorRule>();
  private readonly recipientTimeouts = new Map<string, RecipientTimeoutRule>();
  private readonly recipientHolds = new Map<string, RecipientHoldRule>();
  /** Errors for every send from a business number, or from any number of a WABA (Meta's refusals of the account: 131064, 131042, …). */
  private readonly senderErrors = new Map<string, RecipientErrorRule>();
  /** Countries (ISO 3166 alpha-2) where a max-price template is refused with 131065; none by default. */
  private maxPriceUnavailableCountries = new Set<string>();

  constructor(private readonly defaultThroughputPerSecond: number) {
    this.throughputPerSecond = defaultThroughputPerSecond;
  }

  resetToDefaults(): void {
    this.latencyMs = 0;
    this.latencyJitterMs = 0;
    this.errorRate = 0;
    this.timeoutRate = 0;
    this.timeoutHoldMs = DEFAULT_TIMEOUT_HOLD_MS;
    this.seed = DEFAULT_SEED;
    this.random = seededRandom(DEFAULT_SEED);
    this.latency = new LatencyModel(NO_LATENCY);
    this.throughputPerSecond = this.defaultThroughputPerSecond;
    this.throughputByPhoneNumberId.clear();
    this.messagingLimitByPhoneNumberId.clear();
    this.recipientErrors.clear();
    this.recipientTimeouts.clear();
    this.recipientHolds.clear();
    this.senderErrors.clear();
    this.maxPriceUnavailableCountries = new Set();
  }

  /**
   * Validates the whole patch before applying any of it, so a rejected request leaves the
   * settings untouched.
   */
  apply(input: unknown): void {
    if (!isRecord(input)) fail('control settings must be a JSON object');
    const known = new Set<string>([
      'latencyMs',
      'latencyJitterMs',
      'errorRate',
      'timeoutRate',
      'timeoutHoldMs',
      'seed',
      'latency',
      'throughputPerSecond',
      'throughputByPhoneNumberId',
      'messagingLimitByPhoneNumberId',
      'recipientErrors',
      'recipientTimeouts',
      'recipientHolds',
      'senderErrors',
      'maxPriceUnavailableCountries',
    ]);
    const unknown = Object.keys(input).filter((key) => !known.has(key));
    if (unknown.length > 0) fail(`unknown control settings: ${unknown.join(', ')}`);

    const updates: Array<() => void> = [];
    const scalar = (key: keyof SandboxControlPatch, parse: (value: unknown, name: string) => number, set: (value: number) => void) => {
      if (input[key] === undefined) return;
      const value = parse(input[key], key);
      updates.push(() => set(value));
    };
    scalar('latencyMs', nonNegative, (value) => (this.latencyMs = value));
    scalar('latencyJitterMs', nonNegative, (value) => (this.latencyJitterMs = value));
    scalar('errorRate', rate, (value) => (this.errorRate = value));
    scalar('timeoutRate', rate, (value) => (this.timeoutRate = value));
    scalar('timeoutHoldMs', nonNegative, (value) => (this.timeoutHoldMs = value));
    scalar('throughputPerSecond', wholeNumber, (value) => (this.throughputPerSecond = value));
    scalar('seed', wholeNumber, (value) => {
      this.seed = value;
      this.random = seededRandom(value);
    });

    if (input.latency !== undefined) {
      // Re-applying a setting starts its draws again from its seed, so a run can be repeated.
      const latency = parseLatencySetting(input.latency);
      updates.push(() => (this.latency = new LatencyModel(latency)));
    }

    this.collectMapUpdates(input.throughputByPhoneNumberId, 'throughputByPhoneNumberId', updates, this.throughputByPhoneNumberId, (value, name) =>
      wholeNumber(value, name),
    );
    this.collectMapUpdates(
      input.messagingLimitByPhoneNumberId,
      'messagingLimitByPhoneNumberId',
      updates,
      this.messagingLimitByPhoneNumberId,
      parseMessagingLimit,
    );
    this.collectMapUpdates(input.recipientErrors, 'recipientErrors', updates, this.recipientErrors, parseErrorRule, recipientKey);
    this.collectMapUpdates(input.recipientTimeouts, 'recipientTimeouts', updates, this.recipientTimeouts, parseTimeoutRule, recipientKey);
    this.collectMapUpdates(input.recipientHolds, 'recipientHolds', updates, this.recipientHolds, parseHoldRule, recipientKey);
    this.collectMapUpdates(input.senderErrors, 'senderErrors', updates, this.senderErrors, parseErrorRule);
    if (input.maxPriceUnavailableCountries !== undefined) {
      const countries = parseCountries(input.maxPriceUnavailableCountries, 'maxPriceUnavailableCountries');
      updates.push(() => (this.maxPriceUnavailableCountries = countries));
    }

    for (const update of updates) update();
  }

  private collectMapUpdates<T>(
    value: unknown,
    name: string,
    updates: Array<() => void>,
    target: Map<string, T>,
    parse: (value: unknown, name: string) => T,
    normaliseKey: (key: string) => string = (key) => key,
  ): void {
    if (value === undefined) return;
    for (const [rawKey, entry] of mapEntries(value, name)) {
      const key = normaliseKey(rawKey);
      if (entry === null) {
        updates.push(() => target.delete(key));
      } else {
        const parsed = parse(entry, `${name}.${rawKey}`);
        updates.push(() => target.set(key, parsed));
      }
    }
  }

  settings(): SandboxControlSettings {
    return {
      latencyMs: this.latencyMs,
      latencyJitterMs: this.latencyJitterMs,
      errorRate: this.errorRate,
      timeoutRate: this.timeoutRate,
      timeoutHoldMs: this.timeoutHoldMs,
      seed: this.seed,
      latency: { ...this.latency.setting },
      throughputPerSecond: this.throughputPerSecond,
      throughputByPhoneNumberId: Object.fromEntries(this.throughputByPhoneNumberId),
      messagingLimitByPhoneNumberId: Object.fromEntries(this.messagingLimitByPhoneNumberId),
      recipientErrors: Object.fromEntries([...this.recipientErrors].map(([key, rule]) => [key, { ...rule }])),
      recipientTimeouts: Object.fromEntries([...this.recipientTimeouts].map(([key, rule]) => [key, { ...rule }])),
      recipientHolds: Object.fromEntries([...this.recipientHolds].map(([key, rule]) => [key, { ...rule }])),
      senderErrors: Object.fromEntries([...this.senderErrors].map(([key, rule]) => [key, { ...rule }])),
      maxPriceUnavailableCountries: [...this.maxPriceUnavailableCountries],
    };
  }

  /** Whether a max-price template to a user of `country` (ISO alpha-2) is refused with 131065. */
  maxPriceUnavailableIn(country: string): boolean {
    return this.maxPriceUnavailableCountries.has(country);
  }

  throughputFor(phoneNumberId: string): number {
    return this.throughputByPhoneNumberId.get(phoneNumberId) ?? this.throughputPerSecond;
  }

  /** The number's messaging limit; TIER_UNLIMITED unless set, so nothing else is limited by default. */
  messagingLimitFor(phoneNumberId: string): MessagingLimitTier {
    return this.messagingLimitByPhoneNumberId.get(phoneNumberId) ?? 'TIER_UNLIMITED';
  }

  /** Milliseconds to delay this request; draws from the PRNG only when jitter is configured. */
  nextLatencyMs(): number {
    if (this.latencyJitterMs === 0) return this.latencyMs;
    return this.latencyMs + this.random() * this.latencyJitterMs;
  }

  /** Milliseconds between a Graph request's handling and its answer (the `latency` distribution). */
  nextAnswerDelayMs(): number {
    return this.latency.nextDelayMs();
  }

  /** Whether an accepted send's answer is lost (`latency.timeoutRate`): the message went out, no answer comes. */
  shouldLoseAnswer(): boolean {
    return this.latency.nextAnswerLost();
  }

  get holdMs(): number {
    return this.timeoutHoldMs;
  }

  shouldTimeOut(): boolean {
    return this.timeoutRate > 0 && this.random() < this.timeoutRate;
  }

  shouldFailTransiently(): boolean {
    return this.errorRate > 0 && this.random() < this.errorRate;
  }

  /** The timeout rule that applies to this send, if any (`accepted`: the send goes out, only its answer is lost). */
  takeRecipientTimeout(recipient: string): RecipientTimeoutRule | undefined {
    return this.recipientTimeouts.size > 0 ? takeRule(this.recipientTimeouts, recipient) : undefined;
  }

  /** Whether this template send is answered `held_for_quality_assessment` (a `recipientHolds` rule). */
  takeRecipientHold(recipient: string): boolean {
    return this.recipientHolds.size > 0 && takeRule(this.recipientHolds, recipient) !== undefined;
  }

  /** The error every send from this number (or any number of this WABA) answers, if one is set (`senderErrors`). */
  takeSenderError(phoneNumberId: string, wabaId: string): RecipientErrorRule | undefined {
    if (this.senderErrors.size === 0) return undefined;
    return takeRule(this.senderErrors, phoneNumberId) ?? takeRule(this.senderErrors, wabaId);
  }

  takeRecipientError(recipient: string): RecipientErrorRule | undefined {
    return this.recipientErrors.size > 0 ? takeRule(this.recipientErrors, recipient) : undefined;
  }
}
