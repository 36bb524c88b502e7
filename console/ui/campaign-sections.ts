/** The campaign page's read-only sections: funnel, cost, messages per minute, failures by code. */
import type { JobStatusView, ReasonRow } from '../model/api-types';
import { formatCount, formatMoney } from '../model/format';
import { failureGroupsOf, funnelOf } from '../model/funnel';
import type { MinuteCount } from '../model/per-minute';
import { drawFunnel, drawPerMinute } from './charts';
import { dataTable, el, replaceChildren } from './dom';

export interface Sections {
  root: HTMLElement;
  update(status: JobStatusView, reasons: readonly ReasonRow[]): void;
  updatePerMinute(points: readonly MinuteCount[] | undefined, error?: string): void;
}

const section = (id: string, title: string, ...children: Node[]): HTMLElement =>
  el('section', { class: 'card', 'aria-labelledby': id }, el('h3', { id }, title), ...children);

export function createSections(): Sections {
  const funnelCanvas = el('canvas', { role: 'img', 'aria-label': 'Funnel: sent, delivered, read, and failed beside them' });
  const funnelNumbers = el('dl', { class: 'funnel-numbers' });
  const costBox = el('div');
  const minuteCanvas = el('canvas', { role: 'img', 'aria-label': 'Messages per minute over time' });
  const minuteNote = el('p', { class: 'help' });
  const failures = el('div');
  const costSection = section('cost-title', 'Cost', costBox);
  const root = el(
    'div',
    { class: 'sections' },
    section('funnel-title', 'Funnel', el('div', { class: 'chart' }, funnelCanvas), funnelNumbers),
    costSection,
    section('minute-title', 'Messages per minute', el('div', { class: 'chart' }, minuteCanvas), minuteNote),
    section('failures-title', 'Failures by code', failures),
  );

  return {
    root,
    update(status, reasons) {
      const bars = funnelOf(status.summary);
      drawFunnel(funnelCanvas, bars);
      replaceChildren(funnelNumbers, ...bars.flatMap((bar) => [el('dt', {}, bar.label), el('dd', { 'data-count': bar.label.toLowerCase() }, formatCount(bar.value))]));
      const cost = status.summary.cost;
      costSection.hidden = cost === undefined;
      if (cost) {
        const categories = Object.entries(cost.byCategory ?? {}).map(([category, value]) => [category, formatCount(value.billed), formatMoney(value.amount, cost.currency)]);
        replaceChildren(
          costBox,
          el('p', { class: 'cost-total' }, `${formatMoney(cost.amount, cost.currency)} for ${formatCount(cost.billed)} billed messages`),
          categories.length ? dataTable('Cost by pricing category', ['Category', 'Billed', 'Amount'], categories) : null,
        );
      }
      const groups = failureGroupsOf(status.summary.failuresByReason, reasons);
      replaceChildren(
        failures,
        groups.length === 0
          ? el('p', {}, 'No failures.')
          : dataTable('Failures grouped by Meta code', ['Code', 'What happened', 'Recipients', 'What to do'], groups.map((group) => [group.code, group.title, formatCount(group.count), group.action]), { class: 'failures' }),
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
