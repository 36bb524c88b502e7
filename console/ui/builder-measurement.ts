/**
 * The builder's optional measurement fields (issue 38, docs/CONSOLE.md "New campaign"): a holdout in
 * percent of the audience and the attribution window in hours (console/model/campaign-measurement.ts).
 */
import { DEFAULT_ATTRIBUTION_WINDOW_HOURS, MAX_HOLDOUT_PERCENT, measurementOf, type Measurement } from '../model/campaign-measurement';
import { el } from './dom';

export interface MeasurementFields {
  root: HTMLElement;
  read(): { values: Measurement; problem?: string };
}

export function createMeasurementFields(changed: () => void): MeasurementFields {
  const holdout = el('input', {
    id: 'campaign-holdout',
    type: 'number',
    min: 0.1,
    max: MAX_HOLDOUT_PERCENT,
    step: 0.1,
    inputmode: 'decimal',
    'aria-describedby': 'campaign-holdout-help',
  });
  const hours = el('input', {
    id: 'campaign-window',
    type: 'number',
    min: 1,
    max: 720,
    step: 1,
    inputmode: 'numeric',
    placeholder: String(DEFAULT_ATTRIBUTION_WINDOW_HOURS),
    'aria-describedby': 'campaign-window-help',
  });
  for (const input of [holdout, hours]) input.addEventListener('input', changed);
  const root = el(
    'fieldset',
    { class: 'measurement' },
    el('legend', {}, 'Measuring what it earned (optional)'),
    el('div', { class: 'field' }, el('label', { for: holdout.id }, 'Hold out (percent of the audience)'), holdout),
    el(
      'p',
      { id: 'campaign-holdout-help', class: 'help' },
      `Empty: no holdout. Up to ${MAX_HOLDOUT_PERCENT} %: members drawn at random are never sent (HELD_OUT), and their own messages measure how many replies the campaign caused.`,
    ),
    el('div', { class: 'field' }, el('label', { for: hours.id }, 'Attribution window (hours)'), hours),
    el(
      'p',
      { id: 'campaign-window-help', class: 'help' },
      `How long after delivery a message without a reply context counts as a reply to this campaign; empty: ${DEFAULT_ATTRIBUTION_WINDOW_HOURS} hours.`,
    ),
  );
  return { root, read: () => measurementOf(holdout.value, hours.value) };
}
