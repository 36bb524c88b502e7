/**
 * Meta-like answer times for the Graph API (`latency` in `/_sandbox/control`): a log-normal
 * distribution given by its median and 99th percentile, and a rate of sends whose answer is lost
 * (the message is accepted and sent; the client only ever sees its own timeout).
 *
 * A log-normal is what request latencies of a large service look like: most answers near the
 * median, a long right tail. With median m and 99th percentile q: mu = ln(m), sigma = ln(q / m) / z
 * where z = 2.3263 is the standard normal's 99th percentile. Draws use their own seeded PRNG, so
 * turning latency on does not change which sends meet the other injected faults.
 */
import { fail, isRecord, nonNegative, rate, wholeNumber } from './control-values';
import { seededRandom } from './seeded-random';

/** The standard normal distribution's 99th percentile. */
export const Z_99 = 2.3263478740408408;
/** No draw waits longer than this unless `maxMs` says otherwise (one tail draw must not stall a run). */
export const DEFAULT_LATENCY_MAX_MS = 60_000;

export type LatencySetting =
  | { distribution: 'none' }
  | { distribution: 'lognormal'; p50Ms: number; p99Ms: number; timeoutRate: number; seed: number; maxMs: number };

/** What a client may post: the optional fields take their defaults (timeoutRate 0, seed 1, maxMs 60,000). */
export type LatencySettingInput =
  | { distribution: 'none' }
  | { distribution: 'lognormal'; p50Ms: number; p99Ms: number; timeoutRate?: number; seed?: number; maxMs?: number };

export const NO_LATENCY: LatencySetting = { distribution: 'none' };

const KNOWN_KEYS = new Set(['distribution', 'p50Ms', 'p99Ms', 'timeoutRate', 'seed', 'maxMs']);

/** `null` or `{ distribution: "none" }`: answers as soon as they are ready. Every failure is a 400 naming the field. */
export function parseLatencySetting(value: unknown, name = 'latency'): LatencySetting {
  if (value === null) return NO_LATENCY;
  if (!isRecord(value)) fail(`${name} must be an object or null`);
  const unknown = Object.keys(value).filter((key) => !KNOWN_KEYS.has(key));
  if (unknown.length > 0) fail(`unknown ${name} settings: ${unknown.join(', ')}`);
  if (value.distribution === 'none') {
    const extra = Object.keys(value).filter((key) => key !== 'distribution');
    if (extra.length > 0) fail(`${name} with distribution "none" takes no other settings (got ${extra.join(', ')})`);
    return NO_LATENCY;
  }
  if (value.distribution !== 'lognormal') fail(`${name}.distribution must be "lognormal" or "none"`);
  const p50Ms = nonNegative(value.p50Ms, `${name}.p50Ms`);
  const p99Ms = nonNegative(value.p99Ms, `${name}.p99Ms`);
  if (p50Ms <= 0) fail(`${name}.p50Ms must be a number > 0`);
  if (p99Ms < p50Ms) fail(`${name}.p99Ms must be at least ${name}.p50Ms`);
  const maxMs = value.maxMs === undefined ? DEFAULT_LATENCY_MAX_MS : nonNegative(value.maxMs, `${name}.maxMs`);
  if (maxMs < p99Ms) fail(`${name}.maxMs must be at least ${name}.p99Ms`);
  return {
    distribution: 'lognormal',
    p50Ms,
    p99Ms,
    timeoutRate: value.timeoutRate === undefined ? 0 : rate(value.timeoutRate, `${name}.timeoutRate`),
    seed: value.seed === undefined ? 1 : wholeNumber(value.seed, `${name}.seed`),
    maxMs,
  };
}

/** Draws from a setting: the time an answer takes, and whether an accepted send's answer is lost. */
export class LatencyModel {
  private readonly random: () => number;
  private readonly mu: number;
  private readonly sigma: number;

  constructor(readonly setting: LatencySetting) {
    this.random = seededRandom(setting.distribution === 'none' ? 1 : setting.seed);
    this.mu = setting.distribution === 'none' ? 0 : Math.log(setting.p50Ms);
    this.sigma = setting.distribution === 'none' ? 0 : Math.log(setting.p99Ms / setting.p50Ms) / Z_99;
  }

  /** Milliseconds from a request's arrival to its answer (0 with no distribution). */
  nextDelayMs(): number {
    if (this.setting.distribution === 'none') return 0;
    return Math.min(this.setting.maxMs, Math.exp(this.mu + this.sigma * this.standardNormal()));
  }

  /** Whether this accepted send's answer never comes (drawn only when a rate is set). */
  nextAnswerLost(): boolean {
    return this.setting.distribution === 'lognormal' && this.setting.timeoutRate > 0 && this.random() < this.setting.timeoutRate;
  }

  /** Box-Muller; 1 - u keeps the logarithm's argument in (0, 1]. */
  private standardNormal(): number {
    const u = 1 - this.random();
    const v = this.random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
