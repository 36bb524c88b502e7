/**
 * Issue 39 on a job's and a campaign's page (docs/CONSOLE.md "Respecting the people on the list"):
 * the header's facts (held for the send window or the frequency cap and until when, the canary, the
 * pause in words) and the section a halt shows: each measured rate beside its threshold.
 */
import type { CanaryView, PauseShown, WaitingCounts } from '../model/respect-types';
import { canaryWords, haltRowsOf, pauseWords, sendRulesFactsOf, waitingFactsOf } from '../model/respect-views';
import type { SendRules } from '../../shared/send-rules/send-rules.schema';
import { dataTable, el, notice, replaceChildren, section } from './dom';

/** The facts to add to a page's header: the rules given, who waits and until when, the canary, the pause. */
export function respectFacts(
  counts: WaitingCounts,
  pause: PauseShown | null | undefined,
  campaign: { canary?: CanaryView | null; sendRules?: Partial<SendRules> } = {},
): Array<[string, string]> {
  const canary = campaign.canary ? [['Canary', canaryWords(campaign.canary)] as [string, string]] : [];
  return [...sendRulesFactsOf(campaign.sendRules), ...waitingFactsOf(counts), ...canary, ...(pause ? [['Paused', pauseWords(pause)] as [string, string]] : [])];
}

export interface HaltSection {
  root: HTMLElement;
  /** Shown only while the job or campaign is paused by its thresholds, with what they measured. */
  update(pause: PauseShown | null | undefined): void;
}

export function createHaltSection(): HaltSection {
  const body = el('div');
  const root = section('halt-title', 'Halted by its thresholds', body);
  root.hidden = true;
  return {
    root,
    update(pause) {
      const halt = pause?.pausedBy === 'canary' ? pause.halt : undefined;
      root.hidden = !halt;
      if (!halt || !pause) return;
      const rows = haltRowsOf(halt);
      replaceChildren(
        body,
        notice(pauseWords(pause), 'info'),
        dataTable(
          'Measured beside the thresholds',
          ['Measure', 'Measured', 'Threshold', 'In words'],
          rows.map((row) => [row.measure, row.measured, row.threshold, row.words]),
          { class: 'halt' },
        ),
      );
      // The measures over their threshold stand out (bold), besides the words saying "above".
      body.querySelectorAll('table.halt tbody tr').forEach((tr, index) => {
        if (rows[index]?.over) tr.querySelectorAll('td').forEach((cell) => cell.classList.add('over'));
      });
    },
  };
}
