/**
 * The builder's step "Respecting the people on the list" (docs/CONSOLE.md "New campaign"): a send
 * window in each recipient's own time (or one named zone), deferral of people over the frequency
 * cap, a canary slice watched before the rest, and the halt thresholds. The fields' values become the
 * body's rules in console/model/send-rules-form.ts, checked by the API's own schemas.
 */
import { sendRulesFormOf, type SendRulesInput } from '../model/send-rules-form';
import { WEEKDAYS, type SendRules, type Weekday } from '../../shared/send-rules/send-rules.schema';
import { el } from './dom';

export interface RespectFields {
  root: HTMLElement;
  read(): { values: Partial<SendRules>; problem?: string };
}

const DAY_WORDS: Record<Weekday, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };

const field = (input: HTMLElement & { id: string }, label: string, help?: string): HTMLElement =>
  el('div', { class: 'field' }, el('label', { for: input.id }, label), input, help ? el('p', { id: `${input.id}-help`, class: 'help' }, help) : null);

const check = (id: string, label: string, checked = false): [HTMLInputElement, HTMLElement] => {
  const box = el('input', { id, type: 'checkbox', checked });
  return [box, el('div', { class: 'checkbox' }, box, el('label', { for: id }, label))];
};

const numberInput = (id: string, attributes: Record<string, string | number>): HTMLInputElement =>
  el('input', { id, type: 'number', inputmode: 'decimal', 'aria-describedby': `${id}-help`, ...attributes });

function windowFields(changed: () => void) {
  const from = el('input', {
    id: 'window-from',
    type: 'text',
    inputmode: 'numeric',
    placeholder: '09:00',
    maxlength: 5,
    'aria-describedby': 'window-from-help',
  });
  const to = el('input', { id: 'window-to', type: 'text', inputmode: 'numeric', placeholder: '20:00', maxlength: 5, 'aria-describedby': 'window-to-help' });
  const days = WEEKDAYS.map((day) => check(`window-day-${day}`, DAY_WORDS[day], true));
  const own = el('input', { id: 'window-zone-recipient', type: 'radio', name: 'window-zone', value: 'recipient', checked: true });
  const named = el('input', { id: 'window-zone-named', type: 'radio', name: 'window-zone', value: 'named' });
  const zoneName = el('input', {
    id: 'window-zone-name',
    type: 'text',
    list: 'window-zones',
    placeholder: 'Europe/London',
    'aria-describedby': 'window-zone-name-help',
  });
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  zoneName.addEventListener('input', () => (named.checked = true));
  const root = el(
    'fieldset',
    { class: 'send-window' },
    el('legend', {}, 'Send window (optional)'),
    el('p', { class: 'help' }, 'Recipients outside it are held, not failed, and sent when it opens. Empty: any time.'),
    field(from, 'Send from (HH:MM)', 'Local time the window opens, 24-hour clock.'),
    field(to, 'Send until (HH:MM)', 'Local time it closes; 24:00 is midnight; earlier than "from" spans midnight.'),
    el('fieldset', { class: 'days' }, el('legend', {}, 'Days'), ...days.map(([, row]) => row)),
    el(
      'fieldset',
      { class: 'zone' },
      el('legend', {}, 'Time zone'),
      el('div', { class: 'checkbox' }, own, el('label', { for: own.id }, "Each recipient's own (their timeZone attribute, else their number's zone)")),
      el('div', { class: 'checkbox' }, named, el('label', { for: named.id }, 'One zone for everyone')),
      field(zoneName, 'Zone name (IANA)', 'For example Asia/Kolkata or America/New_York.'),
      el('datalist', { id: 'window-zones' }, ...zones.map((zone) => el('option', { value: zone }))),
    ),
  );
  for (const input of [from, to, zoneName, own, named, ...days.map(([box]) => box)]) input.addEventListener('input', changed);
  const read = (): Pick<SendRulesInput, 'windowFrom' | 'windowTo' | 'days' | 'zone' | 'zoneName'> => ({
    windowFrom: from.value,
    windowTo: to.value,
    days: WEEKDAYS.filter((_, index) => days[index]![0].checked),
    zone: named.checked ? 'named' : 'recipient',
    zoneName: zoneName.value,
  });
  return { root, read };
}

function haltFields(changed: () => void) {
  const optOut = numberInput('halt-opt-out', { min: 0, max: 100, step: 'any' });
  const failure = numberInput('halt-failure', { min: 0, max: 100, step: 'any' });
  const block = numberInput('halt-block', { min: 0, max: 100, step: 'any' });
  const [quality, qualityRow] = check('halt-quality', "Halt if Meta lowers the template's quality rating");
  const [canary, canaryRow] = check('canary-on', 'Send a canary first: a slice of the audience, watched before the rest goes');
  const [watch, watchRow] = check('halt-while-running', 'Watch these thresholds while the whole campaign runs', true);
  const percent = el('input', { id: 'canary-size-percent', type: 'radio', name: 'canary-size', value: 'percent', checked: true });
  const count = el('input', { id: 'canary-size-count', type: 'radio', name: 'canary-size', value: 'count' });
  const amount = numberInput('canary-amount', { min: 0, step: 'any', placeholder: '5' });
  const minutes = numberInput('canary-minutes', { min: 1, max: 1440, step: 1, placeholder: '30' });
  const canaryBox = el(
    'div',
    { class: 'canary', hidden: true },
    el('div', { class: 'checkbox' }, percent, el('label', { for: percent.id }, 'Percent of the audience')),
    el('div', { class: 'checkbox' }, count, el('label', { for: count.id }, 'Number of people')),
    field(amount, 'Canary size', 'Empty: 5 % of the audience. At most 50 %.'),
    field(minutes, 'Watch the canary for (minutes)', 'After the slice is settled, 1 to 1,440 minutes.'),
  );
  canary.addEventListener('change', () => (canaryBox.hidden = !canary.checked));
  const root = el(
    'fieldset',
    { class: 'halt' },
    el('legend', {}, 'Canary and halt thresholds (optional)'),
    el('p', { class: 'help' }, 'Above a threshold the campaign pauses itself (paused by canary) with the measured rates; a person then resumes or cancels it.'),
    field(optOut, 'Opt-out rate above (%)', 'Share of those sent who opted out.'),
    field(failure, 'Failure rate above (%)', 'Share of those sent that failed by a Meta code.'),
    field(block, 'Block rate above (%)', "Share of those sent that hit Meta's block signals."),
    qualityRow,
    canaryRow,
    canaryBox,
    watchRow,
  );
  for (const input of [optOut, failure, block, quality, canary, watch, percent, count, amount, minutes]) input.addEventListener('input', changed);
  const read = (): Omit<SendRulesInput, 'windowFrom' | 'windowTo' | 'days' | 'zone' | 'zoneName' | 'deferCapped'> => ({
    canary: canary.checked,
    canarySize: count.checked ? 'count' : 'percent',
    canaryAmount: amount.value,
    observeMinutes: minutes.value,
    watchWhileRunning: watch.checked,
    optOutPercent: optOut.value,
    failurePercent: failure.value,
    blockPercent: block.value,
    qualityDrop: quality.checked,
  });
  return { root, read };
}

/** The step's fields; `changed` runs on any edit (the check is then stale). */
export function createRespectFields(changed: () => void): RespectFields {
  const window = windowFields(changed);
  const [defer, deferRow] = check('defer-capped', 'Defer people over the frequency cap until the cap allows (instead of skipping them as FREQUENCY_CAPPED)');
  defer.addEventListener('input', changed);
  const halt = haltFields(changed);
  const root = el('div', { class: 'respect' }, window.root, el('fieldset', { class: 'cap' }, el('legend', {}, 'Frequency cap'), deferRow), halt.root);
  return { root, read: () => sendRulesFormOf({ ...window.read(), deferCapped: defer.checked, ...halt.read() }) };
}
