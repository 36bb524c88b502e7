/**
 * What a dry run says of a send window (docs/CAMPAIGNS.md "Send windows"): how many recipients are
 * inside their window at the send time (`now`) and, for the rest, when their windows open and how
 * many each opening lets go (`later`, earliest first). The same zone rules and clock as the chunk
 * worker (recipient-time-zone.ts, send-window-clock.ts), so the plan is what the send will do.
 */
import type { SendWindow } from './send-rules.schema';
import { recipientTimeZone } from './recipient-time-zone';
import { windowState, windowZone, type WindowState } from './send-window-clock';

export interface SendWindowPlan {
  /** Inside their window at the send time: sent at once. */
  now: number;
  /** The others by the opening of their window (ISO), earliest first. */
  later: Array<{ at: string; count: number }>;
}

/** Counts recipients into a plan as they are read (a campaign's audiences page by page). */
export class SendWindowPlanner {
  private inside = 0;
  private readonly openings = new Map<number, number>();
  private readonly byZone = new Map<string, WindowState>();

  constructor(
    private readonly window: SendWindow,
    private readonly at: Date,
  ) {}

  add(recipients: ReadonlyArray<{ to: string; timeZone?: string }>): void {
    for (const recipient of recipients) {
      const zone = windowZone(this.window, () => recipientTimeZone(recipient));
      let state = this.byZone.get(zone);
      if (!state) this.byZone.set(zone, (state = windowState(this.window, zone, this.at)));
      if (state.open) this.inside += 1;
      else this.openings.set(state.opensAt.getTime(), (this.openings.get(state.opensAt.getTime()) ?? 0) + 1);
    }
  }

  /** The plan, each count times `scale` (a campaign dry run that read part of its audiences). */
  plan(scale = 1): SendWindowPlan {
    return {
      now: Math.round(this.inside * scale),
      later: [...this.openings].sort(([a], [b]) => a - b).map(([at, count]) => ({ at: new Date(at).toISOString(), count: Math.round(count * scale) })),
    };
  }
}

/**
 * `{ sendWindow }` for a dry run's answer when the request has a window; nothing otherwise (no answer changes).
 *
 * @example
 * sendWindowPlanOf({ from: '09:00', to: '20:00' }, [{ to: '919800000001' }, { to: '12125550123' }], new Date('2026-06-01T06:00:00Z'));
 * // { sendWindow: { now: 1, later: [{ at: '2026-06-01T13:00:00.000Z', count: 1 }] } }
 */
export function sendWindowPlanOf(
  window: SendWindow | undefined,
  recipients: ReadonlyArray<{ to: string; timeZone?: string }>,
  at: Date,
): { sendWindow?: SendWindowPlan } {
  if (!window) return {};
  const planner = new SendWindowPlanner(window, at);
  planner.add(recipients);
  return { sendWindow: planner.plan() };
}
