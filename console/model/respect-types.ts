/**
 * The answer fields of issue 39 the console reads (docs/CAMPAIGNS.md "Send windows", "Frequency
 * caps", "Canary and halt thresholds"; docs/CONSOLE.md "Respecting the people on the list"). Every
 * field is optional: the API gives it only when there is something to say, and the console then
 * shows nothing (never zeros) for it.
 */
import type { CappedCategory } from '../../shared/send-rules/ports';
import type { HaltIf } from '../../shared/send-rules/send-rules.schema';

/** Recipients held, not failed: outside their send window, or deferred by the frequency cap (a job's summary, a campaign's totals). */
export interface WaitingCounts {
  /** Recipients outside their send window, sent when it opens. */
  waitingForWindow?: number;
  /** The earliest opening among them (ISO). */
  nextWindowAt?: string;
  /** Recipients over the frequency cap waiting until it allows (`deferCapped`). */
  deferredByCap?: number;
  /** The earliest time the cap allows one of them (ISO). */
  nextCapAt?: string;
}

/** The rates a halt measured over the recipients sent so far (shares: 0.01 = 1 %), and whether the template's quality dropped. */
export interface HaltMeasured {
  optOutRate?: number;
  failureRate?: number;
  blockRate?: number;
  qualityDrop?: boolean;
}

/** The measures a halt can exceed, in the order the API reports them. */
export type HaltMeasure = 'optOutRate' | 'failureRate' | 'blockRate' | 'qualityDrop';

/**
 * A halt by the canary or the thresholds (`pause.halt`, `pausedBy: "canary"`; a canary's `verdict`):
 * what was measured, the thresholds, over how many sent (shared/send-rules/halt-figures.ts).
 */
export interface HaltView {
  /** `canary`: the first slice; `running`: the campaign's own `haltIf` while it runs. */
  stage?: 'canary' | 'running';
  measured: HaltMeasured;
  thresholds: HaltIf;
  /** The thresholds the figures went over (empty: within them); absent: compared here. */
  exceeded?: HaltMeasure[];
  sent: number;
  /** The numerators: opt-outs, failures and blocks among `sent`. */
  counts?: { optOuts: number; failures: number; blocks: number };
}

/** The `pause` of a job or campaign that reads PAUSED (docs/BROADCAST.md "Pausing a job"). */
export interface PauseShown {
  reason?: string;
  since?: string;
  /** When the rest fails unless the template is approved again; null: held until resumed. */
  failsAt?: string | null;
  /** `meta`, `user` or `canary`. */
  pausedBy?: string;
  /** A person's pause: the credential that paused it. */
  by?: string;
  at?: string;
  halt?: HaltView;
}

/** A campaign's canary (`canary` of the campaign view): `sending`, `observing`, `passed` or `halted`, the slice's size, until when it is watched, the verdict's figures. */
export interface CanaryView {
  state: string;
  slice: number;
  observeUntil?: string;
  verdict?: HaltView & { at?: string };
}

/** A dry run's send-window plan: how many go now, and when the rest go. */
export interface SendWindowPlan {
  now: number;
  later: Array<{ at: string; count: number }>;
}

/** `GET /contact-policy` (404 when the organization has none: no cap). */
export interface ContactPolicyView {
  marketingPerPerson: number;
  perDays: number;
  categories?: CappedCategory[];
  updatedAt?: string;
  updatedBy?: string;
}
