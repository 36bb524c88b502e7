/**
 * A job's outcomes counted over its recipients (docs/OUTCOMES.md "Where it shows"): what the status
 * summary, the campaign view and the broadcasts list show. Pure: the DynamoDB adapter counts the
 * tally items it already read for the summary (no extra read), the in-memory fake its own items.
 */
import { tallyCodes, type TallyCode } from '../delivery/recipient-status';
import { emptyOutcomeCounts, type OutcomeCounts, type OutcomeFacts } from './outcome-facts';

/**
 * Counts the recipients' outcome facts. A recipient whose tally code is `9H` (held out of a
 * campaign, never sent) counts as held out, and their attributed inbound message as the holdout's
 * inbound, never as a reply; every other recipient with a reply counts in `replied`, each person
 * once; `clicked` counts people, `clicks` every counted click; `buttons` counts each person once
 * per button (index and the payload they tapped), in index then payload order.
 *
 * @example
 * countOutcomes([[0, '3R'], [1, '9H']], [[0, { repliedAt: '2026-12-01T10:00:00.000Z', clicks: 2, firstClickAt: '2026-12-01T10:01:00.000Z' }], [1, { repliedAt: '2026-12-01T11:00:00.000Z' }]]);
 * // { replied: 1, clicked: 1, clicks: 2, optedOut: 0, buttons: [], holdout: { heldOut: 1, inbound: 1 } }
 */
export function countOutcomes(
  codes: Iterable<readonly [index: number, code: TallyCode]>,
  outcomes: Iterable<readonly [index: number, facts: OutcomeFacts]>,
): OutcomeCounts {
  const counts = emptyOutcomeCounts();
  const heldOut = new Set<number>();
  for (const [index, code] of codes) if (code === tallyCodes.heldOut) heldOut.add(index);
  counts.holdout.heldOut = heldOut.size;
  const buttons = new Map<string, { index: number; payload: string; taps: number }>();
  for (const [index, facts] of outcomes) {
    if (heldOut.has(index)) {
      if (facts.repliedAt !== undefined) counts.holdout.inbound += 1;
      continue;
    }
    if (facts.repliedAt !== undefined) counts.replied += 1;
    if ((facts.clicks ?? 0) > 0) {
      counts.clicked += 1;
      counts.clicks += facts.clicks!;
    }
    if (facts.optedOutAt !== undefined) counts.optedOut += 1;
    for (const { index: button, payload } of facts.buttonTaps ?? []) {
      const key = `${button}:${payload}`;
      const known = buttons.get(key);
      if (known) known.taps += 1;
      else buttons.set(key, { index: button, payload, taps: 1 });
    }
  }
  counts.buttons = [...buttons.values()].sort((a, b) => a.index - b.index || (a.payload < b.payload ? -1 : a.payload > b.payload ? 1 : 0));
  return counts;
}
