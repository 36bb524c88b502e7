/**
 * The outcome sections of a job's and a campaign's page (issue 38, docs/CONSOLE.md "Outcomes"):
 * taps per button with the STOP replies and the cost per reply and per click, and a campaign's lift
 * over its held-out group. Each is hidden while the answer has nothing for it (a job from before
 * outcomes, a campaign without a holdout).
 */
import type { CampaignLift, JobCost, OutcomeTotals } from '../model/api-types';
import { formatCount } from '../model/format';
import { buttonRowsOf, liftRowsOf, liftVerdictOf, outcomeFactsOf } from '../model/outcomes';
import { dataTable, el, factList, notice, replaceChildren, section } from './dom';

export interface OutcomeSections {
  outcomes: HTMLElement;
  lift: HTMLElement;
  update(counts: OutcomeTotals, cost: JobCost | null | undefined, lift: CampaignLift | null | undefined): void;
}

export function createOutcomeSections(): OutcomeSections {
  const outcomeBox = el('div');
  const liftBox = el('div');
  const outcomes = section('outcomes-title', 'Replies, buttons and clicks', outcomeBox);
  const lift = section('lift-title', 'Lift over the held-out group', liftBox);
  outcomes.hidden = true;
  lift.hidden = true;
  return {
    outcomes,
    lift,
    update(counts, cost, liftFigures) {
      const facts = outcomeFactsOf(counts, cost);
      const buttons = buttonRowsOf(counts.buttons);
      outcomes.hidden = facts.length === 0 && counts.buttons === undefined;
      replaceChildren(
        outcomeBox,
        facts.length ? factList(facts) : null,
        counts.buttons === undefined
          ? null
          : buttons.length === 0
            ? el('p', {}, 'No button tapped yet.')
            : dataTable(
                'Taps per button (each person once per button)',
                ['Button', 'Payload', 'Taps'],
                buttons.map((row) => [row.button, row.payload, formatCount(row.taps)]),
                { class: 'button-taps' },
              ),
      );
      lift.hidden = !liftFigures;
      if (!liftFigures) return;
      replaceChildren(
        liftBox,
        dataTable('Those sent against those held out', ['', 'Figure'], liftRowsOf(liftFigures, cost?.currency), { class: 'lift' }),
        liftFigures.reliable ? el('p', { class: 'help' }, liftVerdictOf(liftFigures)) : notice(liftVerdictOf(liftFigures), 'info'),
      );
    },
  };
}
