/**
 * Exponential backoff with full jitter (the AWS Architecture Blog's recommendation): spreads
 * retries of many workers hit by the same rate limit. Hand-written rather than p-retry because
 * the retry decision depends on the send's classified outcome and feeds the shared pacer.
 */
export interface BackoffSettings {
  baseMs: number;
  maxMs: number;
}

export const fullJitterDelay = (attempt: number, settings: BackoffSettings, random: () => number): number =>
  Math.floor(random() * Math.min(settings.maxMs, settings.baseMs * 2 ** Math.max(0, attempt - 1)));
