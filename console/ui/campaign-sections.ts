/**
 * The read-only sections of a job's and a campaign's page: funnel, cost, replies, buttons and clicks,
 * the lift (campaigns with a holdout), messages per minute (jobs only: docs/CONSOLE.md "Campaigns"),
 * failures by code. Each page gives its own bars and counts.
 */
import type { CampaignLift, JobCost, JobStatusView, OutcomeTotals, ReasonRow } from '../model/api-types';
import { formatCount, formatMoney } from '../model/format';
import { failureGroupsOf, funnelOf, type FunnelBar } from '../model/funnel';
import type { MinuteCount } from '../model/per-minute';
import { drawFunnel, drawPerMinute } from './charts';
import { dataTable, el, replaceChildren, section } from './dom';
import { createOutcomeSections } from './outcome-sections';

/** What the sections draw: the funnel's bars, the cost (absent without a rate card) and the failures by code. */
export interface SectionsInput {
  bars: readonly FunnelBar[];
  cost: JobCost | null | undefined;
  failuresByCode: Record<string, number>;
  /** Issue 38: what recipients did after (the summary's or the totals' fields; absent on old jobs). */
  outcomes?: OutcomeTotals;
  lift?: CampaignLift | null;
}

export interface Sections {
  root: HTMLElement;
  update(input: SectionsInput, reasons: readonly ReasonRow[]): void;
  updatePerMinute(points: readonly MinuteCount[] | undefined, error?: string): void;
}

/** A job's status answer as the sections' input. */
export const jobSectionsInput = (status: JobStatusView): SectionsInput => ({
  bars: funnelOf(status.summary),
  cost: status.summary.cost,
  failuresByCode: status.summary.failuresByReason,
  outcomes: status.summary,
  lift: status.summary.lift,
});

/** `data-count` of a bar's number (the browser tests read them): its label in lower case, words joined by `-`. */
const countKey = (label: string): string => label.toLowerCase().replace(/\s+/g, '-');

/** A bar as text: its label, its count, and an outcome's rate (a second `dd`, read after the count). */
const funnelNumber = (bar: FunnelBar): Node[] =>
  [
    el('dt', {}, bar.label),
    el('dd', { 'data-count': countKey(bar.label) }, formatCount(bar.value)),
    bar.rate ? el('dd', { class: 'rate', 'data-rate': countKey(bar.label) }, bar.rate) : null,
  ].filter((node): node is HTMLElement => node !== null);

function costContent(cost: JobCost): Node[] {
  const categories = Object.entries(cost.byCategory ?? {}).map(([category, value]) => [
    category,
    formatCount(value.billed),
    formatMoney(value.amount, cost.currency),
  ]);
  return [
    el('p', { class: 'cost-total' }, `${formatMoney(cost.amount, cost.currency)} for ${formatCount(cost.billed)} billed messages`),
    ...(categories.length ? [dataTable('Cost by pricing category', ['Category', 'Billed', 'Amount'], categories)] : []),
  ];
}

export function createSections(
  options: { perMinute: boolean; funnelLabel: string } = {
    perMinute: true,
    funnelLabel: 'Funnel: sent, delivered, read, replied and clicked, and failed beside them',
  },
): Sections {
  const funnelCanvas = el('canvas', { role: 'img', 'aria-label': options.funnelLabel });
  const funnelNumbers = el('dl', { class: 'funnel-numbers', 'aria-label': 'Funnel in numbers' });
  const costBox = el('div');
  const minuteCanvas = el('canvas', { role: 'img', 'aria-label': 'Messages per minute over time' });
  const minuteNote = el('p', { class: 'help' });
  const failures = el('div');
  const costSection = section('cost-title', 'Cost', costBox);
  const outcomeSections = createOutcomeSections();
  const root = el(
    'div',
    { class: 'sections' },
    section('funnel-title', 'Funnel', el('div', { class: 'chart' }, funnelCanvas), funnelNumbers),
    costSection,
    outcomeSections.outcomes,
    outcomeSections.lift,
    options.perMinute ? section('minute-title', 'Messages per minute', el('div', { class: 'chart' }, minuteCanvas), minuteNote) : null,
    section('failures-title', 'Failures by code', failures),
  );

  return {
    root,
    update(input, reasons) {
      drawFunnel(funnelCanvas, input.bars);
      replaceChildren(funnelNumbers, ...input.bars.flatMap(funnelNumber));
      costSection.hidden = !input.cost;
      if (input.cost) replaceChildren(costBox, ...costContent(input.cost));
      outcomeSections.update(input.outcomes ?? {}, input.cost, input.lift);
      const groups = failureGroupsOf(input.failuresByCode, reasons);
      replaceChildren(
        failures,
        groups.length === 0
          ? el('p', {}, 'No failures.')
          : dataTable(
              'Failures grouped by Meta code',
              ['Code', 'What happened', 'Recipients', 'What to do'],
              groups.map((group) => [group.code, group.title, formatCount(group.count), group.action]),
              { class: 'failures' },
            ),
      );
    },
    updatePerMinute(points, error) {
      if (error) {
        replaceChildren(minuteNote, error);
        return;
      }
      drawPerMinute(minuteCanvas, points ?? []);
      const peak = Math.max(0, ...(points ?? []).map((point) => point.count));
      replaceChildren(
        minuteNote,
        points && points.length > 0
          ? `Peak ${formatCount(peak)} per minute over ${points.length} minute${points.length === 1 ? '' : 's'}; counted by each recipient's last update (docs/CONSOLE.md).`
          : 'Nothing sent yet.',
      );
    },
  };
}
