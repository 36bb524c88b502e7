/**
 * Meta's messaging limit planned, not refused (docs/CAMPAIGNS.md "The messaging limit plan"): how
 * many of a campaign's recipients can go when, as the moving 24-hour window frees. Pure: the
 * expander (expand-campaign.ts) reads when to wake from it, the dry run shows its plan.
 *
 * The window is the portfolio's hourly buckets (messaging-limit.ts): the bucket of hour `h` counts
 * until `h + 25 h` (a bucket holds a whole hour, and the window reaches 24 h back from the send
 * hour's start). Buckets are counted one by one, their sum capped by the window's measured count
 * (a person in two hours is one), so what frees is never more than what was counted. The
 * campaign's own sends join the window as they go and free 25 h after their hour, like anyone's.
 */
import { REACH_WINDOW_HOURS, reachHourOf } from '../broadcast/messaging-limit';

const HOUR_MS = 3_600_000;
/** A bucket frees this long after its hour starts. */
const BUCKET_LIFETIME_MS = (REACH_WINDOW_HOURS + 1) * HOUR_MS;
/** A plan of more steps than this is cut (a limit far below the campaign: the dry run shows the start). */
const MAX_PLAN_STEPS = 200;

/** One hour of the portfolio's window: its `YYYY-MM-DDTHH` (UTC) and the unique recipients counted in it. */
export interface ReachHour {
  hour: string;
  recipients: number;
}

export interface LimitWindow {
  /** Unique recipients per moving 24 h (null: no limit, TIER_UNLIMITED). */
  limit: number | null;
  /** The window's unique recipients now (every bucket's union). */
  usedLast24h: number;
  /** The window's buckets, any order. */
  hours: readonly ReachHour[];
  now: Date;
}

export interface LimitPlanStep {
  /** ISO time from which these recipients can go. */
  from: string;
  recipients: number;
}

export interface LimitPlan {
  /** What can go now (null: no limit). */
  headroom: number | null;
  /** When how many go: the first step now when there is headroom, each next one when the window frees more. */
  plan: LimitPlanStep[];
}

const hourStartMs = (hour: string): number => Date.parse(`${hour}:00:00.000Z`);

/** The window's buckets as they will free: each one's release time and count, the counts' sum capped at `usedLast24h`. */
function releasesOf(window: LimitWindow): Array<{ at: number; recipients: number }> {
  const releases = window.hours
    .map((bucket) => ({ at: hourStartMs(bucket.hour) + BUCKET_LIFETIME_MS, recipients: bucket.recipients }))
    .filter((release) => release.at > window.now.getTime())
    .sort((left, right) => left.at - right.at);
  // The union is at most the sum: the oldest buckets' surplus frees nothing (they were counted in later hours too).
  let surplus = Math.max(0, releases.reduce((sum, release) => sum + release.recipients, 0) - window.usedLast24h);
  return releases.map((release) => {
    const absorbed = Math.min(surplus, release.recipients);
    surplus -= absorbed;
    return { at: release.at, recipients: release.recipients - absorbed };
  });
}

/**
 * The plan for `recipients` new recipients: what goes now and when the rest can follow.
 *
 * @example
 * planSends({ limit: 1000, usedLast24h: 900, hours: [{ hour: '2026-05-04T08', recipients: 900 }], now: new Date('2026-05-04T10:00:00Z') }, 500);
 * // { headroom: 100, plan: [{ from: '2026-05-04T10:00:00.000Z', recipients: 100 }, { from: '2026-05-05T09:00:00.000Z', recipients: 400 }] }
 */
export function planSends(window: LimitWindow, recipients: number): LimitPlan {
  const nowMs = window.now.getTime();
  if (window.limit === null) return { headroom: null, plan: recipients > 0 ? [{ from: window.now.toISOString(), recipients }] : [] };
  const limit = window.limit;
  const headroom = Math.max(0, limit - window.usedLast24h);
  const releases = releasesOf(window);
  const plan: LimitPlanStep[] = [];
  let used = Math.min(limit, window.usedLast24h);
  let remaining = recipients;
  let at = nowMs;
  while (remaining > 0 && plan.length < MAX_PLAN_STEPS && limit > 0) {
    for (const release of releases) {
      if (release.at > at) continue;
      used -= release.recipients;
      release.recipients = 0;
    }
    const sending = Math.min(remaining, Math.max(0, limit - used));
    if (sending > 0) {
      plan.push({ from: new Date(at).toISOString(), recipients: sending });
      remaining -= sending;
      used += sending;
      releases.push({ at: hourStartMs(reachHourOf(new Date(at))) + BUCKET_LIFETIME_MS, recipients: sending });
    }
    const next = releases.filter((release) => release.at > at && release.recipients > 0).reduce((soonest, release) => Math.min(soonest, release.at), Infinity);
    if (next === Infinity) break;
    at = next;
  }
  return { headroom, plan };
}

/**
 * The first time from `window.now` at which `needed` new recipients fit (now when they fit already);
 * undefined when they never fit (more than the limit) or there is no limit to wait for.
 *
 * @example
 * whenRecipientsFit({ limit: 1000, usedLast24h: 1000, hours: [{ hour: '2026-05-04T08', recipients: 1000 }], now }, 10);
 * // 2026-05-05T09:00:00.000Z
 */
export function whenRecipientsFit(window: LimitWindow, needed: number): Date | undefined {
  if (window.limit === null || needed > window.limit) return undefined;
  let free = window.limit - Math.min(window.limit, window.usedLast24h);
  if (free >= needed) return window.now;
  for (const release of releasesOf(window)) {
    free += release.recipients;
    if (free >= needed) return new Date(release.at);
  }
  return undefined;
}
