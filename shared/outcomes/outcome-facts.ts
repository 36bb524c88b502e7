/**
 * What a campaign earned from one recipient after the send (docs/OUTCOMES.md): a reply attributed to
 * the message (by Meta's `context.id`, or last touch within the attribution window), a quick-reply
 * tap, a click on a tracked link, an opt-out by STOP reply. Facts only ever add to a recipient (a
 * first reply's time, one more click), so recording them is idempotent and order-independent like
 * Meta's delivery facts (shared/delivery/recipient-status.ts).
 */

/** How long after delivery (or, for a held-out person, after the moment they would have been sent) an inbound message without `context` is attributed: hours. */
export const DEFAULT_ATTRIBUTION_WINDOW_HOURS = 72;
/** Bounds of a campaign's or broadcast's `attributionWindowHours`. */
export const ATTRIBUTION_WINDOW_BOUNDS = { min: 1, max: 720 } as const;
/** A button payload is kept up to this many characters (Meta allows 256 for a quick reply's payload). */
export const MAX_KEPT_PAYLOAD = 256;

/** How a reply found its message: Meta's `context.id` names it, or the person's latest touch (no context). */
export type ReplyAttribution = 'context' | 'last-touch';

/** One thing a recipient did, as recorded on their slot of the job's tally (shared/outcomes/ports.ts OutcomeStore). */
export type OutcomeEvent =
  /** An inbound message attributed to the send (any type, a tap included: a tap is a reply too). */
  | { kind: 'reply'; at: Date; via: ReplyAttribution }
  /** A quick-reply tap: Meta's `button` message (template) or `interactive.button_reply`; `index` -1 when no button of the message matched. */
  | { kind: 'button'; at: Date; index: number; payload: string }
  /** A counted click on the recipient's tracked link (the redirect), or Meta's link-click event correlated to it. */
  | { kind: 'click'; at: Date }
  /** A STOP reply (opt-out keyword) attributed to the send. */
  | { kind: 'opt-out'; at: Date };

/** One recipient's outcomes as read back (the recipients list and CSV). Times are ISO. */
export interface OutcomeFacts {
  /** The first attributed inbound message. */
  repliedAt?: string;
  /** Every distinct button tapped, first tap each, in time order. */
  buttonTaps?: ReadonlyArray<{ index: number; payload: string; at: string }>;
  /** The first counted click on a tracked link. */
  firstClickAt?: string;
  /** Counted clicks (distinct seconds; preview fetchers and HEAD are never counted). */
  clicks?: number;
  /** A STOP reply attributed to the send. */
  optedOutAt?: string;
}

/** A job's outcomes counted over its recipients (the status summary and the campaign view). */
export interface OutcomeCounts {
  /** Recipients (not held out) with an attributed reply. */
  replied: number;
  /** Recipients with at least one counted click (unique people). */
  clicked: number;
  /** Every counted click. */
  clicks: number;
  /** Recipients whose STOP reply was attributed to the job. */
  optedOut: number;
  /** Taps per button (index and payload as tapped), each person once per button. */
  buttons: Array<{ index: number; payload: string; taps: number }>;
  /** Held-out recipients (campaign holdouts, status HELD_OUT) and how many of them wrote in within the window. */
  holdout: { heldOut: number; inbound: number };
}

/** Counts with nothing in them. */
export const emptyOutcomeCounts = (): OutcomeCounts => ({ replied: 0, clicked: 0, clicks: 0, optedOut: 0, buttons: [], holdout: { heldOut: 0, inbound: 0 } });
