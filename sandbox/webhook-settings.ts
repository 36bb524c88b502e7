/**
 * Webhook settings (`/_sandbox/webhooks`): where the sandbox posts, how it signs, when each status
 * follows an accepted send, and the faults it injects. A patch is validated whole before any of it
 * applies, as `/_sandbox/control` does.
 *
 * The target (url and app secret) is the connection, like a registered account: `reset()` keeps
 * it and puts every other setting back to its default (so webhooks are on again when a target is
 * set). Defaults: `sent` 200 ms, `delivered` 1 s and `read` 3 s after acceptance; every message
 * delivered, half of them read (seeded), so a demo shows both DELIVERED and READ; statuses of one
 * number due within 50 ms share a POST, so a large job does not cost one POST per status.
 */
import { fail, isRecord, nonNegative, optionalTimes, rate, recipientKey, takeRule, wholeNumber } from './control-values';
import { seededRandom } from './seeded-random';

export interface RecipientFailureRule {
  /** Meta's error code of the `failed` status, e.g. 131049, 131026, 131050, 131047. */
  code: number;
  /** Fail this many messages to the recipient, then deliver normally; omitted = always. */
  times?: number;
}

export interface WebhookTarget {
  /** http(s) URL the webhooks are POSTed to. */
  url: string;
  /** Meta app secret: the key of `X-Hub-Signature-256`. */
  appSecret: string;
}

export interface WebhookBehaviour {
  /** Off: accepted messages get no statuses and nothing is posted. Default on (when a target is set). */
  enabled: boolean;
  sentDelayMs: number;
  /** Also when a recipient failure's `failed` follows. */
  deliveredDelayMs: number;
  readDelayMs: number;
  /** 0..1 of accepted messages that get `delivered` (the rest stay `sent`, as to a user who blocked you). */
  deliveredRate: number;
  /** 0..1 of delivered messages that get `read`. */
  readRate: number;
  /** Several statuses of one number per POST (Meta batches under load); off = one status per POST. Default on. */
  batch: boolean;
  batchMaxStatuses: number;
  /** How long a batch waits for more statuses before it is posted. */
  batchWindowMs: number;
  /** 0..1 of messages whose every status is posted twice. */
  duplicateRate: number;
  /** 0..1 of messages whose statuses arrive in reverse order (read before delivered before sent); timestamps keep the true order. */
  reorderRate: number;
  /** 0..1 of messages whose statuses after `sent` arrive `lateDelayMs` late; timestamps keep the true time. */
  lateRate: number;
  lateDelayMs: number;
  /** Seed of the PRNG behind every rate above. */
  seed: number;
  /** POST attempts per body (first included) on a non-2xx answer or a network error. */
  maxAttempts: number;
  /** Backoff before attempt n+1: retryBaseMs × 2^(n-1). */
  retryBaseMs: number;
  requestTimeoutMs: number;
  /** POSTs in flight at once. */
  concurrency: number;
  recipientFailures: Record<string, RecipientFailureRule>;
}

export type WebhookSettingsView = Omit<WebhookBehaviour, 'recipientFailures'> & {
  url: string | null;
  appSecretConfigured: boolean;
  /** Enabled and a target set: accepted messages are being reported. */
  active: boolean;
  recipientFailures: Record<string, RecipientFailureRule>;
};

export type WebhookSettingsPatch = Partial<Omit<WebhookBehaviour, 'recipientFailures'>> & {
  url?: string;
  appSecret?: string;
  recipientFailures?: Record<string, RecipientFailureRule | null>;
};

const DEFAULTS: Omit<WebhookBehaviour, 'recipientFailures'> = {
  enabled: true,
  sentDelayMs: 200,
  deliveredDelayMs: 1000,
  readDelayMs: 3000,
  deliveredRate: 1,
  readRate: 0.5,
  batch: true,
  batchMaxStatuses: 100,
  batchWindowMs: 50,
  duplicateRate: 0,
  reorderRate: 0,
  lateRate: 0,
  lateDelayMs: 5000,
  seed: 1,
  maxAttempts: 5,
  retryBaseMs: 100,
  requestTimeoutMs: 5000,
  concurrency: 16,
};

const BEHAVIOUR_KEYS = Object.keys(DEFAULTS) as Array<keyof typeof DEFAULTS>;
const KNOWN_KEYS = new Set<string>([...BEHAVIOUR_KEYS, 'url', 'appSecret', 'recipientFailures']);
const RATE_KEYS = new Set<string>(['deliveredRate', 'readRate', 'duplicateRate', 'reorderRate', 'lateRate']);
const BOOLEAN_KEYS = new Set<string>(['enabled', 'batch']);
/** At least 1; the rest are whole numbers >= 0 (delays may be 0). */
const POSITIVE_KEYS = new Set<string>(['batchMaxStatuses', 'maxAttempts', 'concurrency', 'requestTimeoutMs']);

function parseUrl(value: unknown): string {
  if (typeof value !== 'string') fail('url must be a string');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail('url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('url must be an absolute http(s) URL');
  return url.toString();
}

function parseBehaviourValue(key: keyof typeof DEFAULTS, value: unknown): number | boolean {
  if (BOOLEAN_KEYS.has(key)) {
    if (typeof value !== 'boolean') fail(`${key} must be a boolean`);
    return value;
  }
  if (RATE_KEYS.has(key)) return rate(value, key);
  const number = key === 'seed' ? wholeNumber(value, key) : nonNegative(value, key);
  if (POSITIVE_KEYS.has(key) && (number < 1 || !Number.isInteger(number))) fail(`${key} must be an integer >= 1`);
  return number;
}

function parseFailureRule(value: unknown, name: string): RecipientFailureRule {
  if (!isRecord(value)) fail(`${name} must be an object`);
  const rule: RecipientFailureRule = { code: wholeNumber(value.code, `${name}.code`) };
  const times = optionalTimes(value.times, `${name}.times`);
  if (times !== undefined) rule.times = times;
  return rule;
}

export class WebhookSettings {
  private target: Partial<WebhookTarget> = {};
  private behaviour = { ...DEFAULTS };
  private readonly failures = new Map<string, RecipientFailureRule>();
  private randomSource = seededRandom(DEFAULTS.seed);

  constructor(target?: WebhookTarget) {
    if (target !== undefined) this.apply(target);
  }

  /** Everything but the target back to its default; the PRNG re-seeded. */
  resetToDefaults(): void {
    this.behaviour = { ...DEFAULTS };
    this.failures.clear();
    this.randomSource = seededRandom(DEFAULTS.seed);
  }

  apply(input: unknown): void {
    if (!isRecord(input)) fail('webhook settings must be a JSON object');
    const unknown = Object.keys(input).filter((key) => !KNOWN_KEYS.has(key));
    if (unknown.length > 0) fail(`unknown webhook settings: ${unknown.join(', ')}`);

    const updates: Array<() => void> = [];
    if (input.url !== undefined) {
      const url = parseUrl(input.url);
      updates.push(() => (this.target.url = url));
    }
    if (input.appSecret !== undefined) {
      const secret = input.appSecret;
      if (typeof secret !== 'string' || secret.length === 0) fail('appSecret must be a non-empty string');
      updates.push(() => (this.target.appSecret = secret));
    }
    for (const key of BEHAVIOUR_KEYS) {
      if (input[key] === undefined) continue;
      const value = parseBehaviourValue(key, input[key]);
      updates.push(() => {
        (this.behaviour as Record<string, number | boolean>)[key] = value;
        if (key === 'seed') this.randomSource = seededRandom(value as number);
      });
    }
    if (input.recipientFailures !== undefined) {
      if (!isRecord(input.recipientFailures)) fail('recipientFailures must be an object keyed by recipient');
      for (const [rawKey, entry] of Object.entries(input.recipientFailures)) {
        const key = recipientKey(rawKey);
        if (entry === null) updates.push(() => this.failures.delete(key));
        else {
          const rule = parseFailureRule(entry, `recipientFailures.${rawKey}`);
          updates.push(() => this.failures.set(key, rule));
        }
      }
    }
    for (const update of updates) update();
  }

  get current(): Readonly<Omit<WebhookBehaviour, 'recipientFailures'>> {
    return this.behaviour;
  }

  /** The target when webhooks are enabled and fully configured; undefined otherwise. */
  activeTarget(): WebhookTarget | undefined {
    const { url, appSecret } = this.target;
    return this.behaviour.enabled && url !== undefined && appSecret !== undefined ? { url, appSecret } : undefined;
  }

  /** True with probability `rate`; draws from the PRNG only for rates strictly between 0 and 1. */
  chance(rateValue: number): boolean {
    if (rateValue <= 0) return false;
    if (rateValue >= 1) return true;
    return this.randomSource() < rateValue;
  }

  takeRecipientFailure(recipient: string): RecipientFailureRule | undefined {
    return this.failures.size > 0 ? takeRule(this.failures, recipient) : undefined;
  }

  view(): WebhookSettingsView {
    return {
      url: this.target.url ?? null,
      appSecretConfigured: this.target.appSecret !== undefined,
      active: this.activeTarget() !== undefined,
      ...this.behaviour,
      recipientFailures: Object.fromEntries([...this.failures].map(([key, rule]) => [key, { ...rule }])),
    };
  }
}
