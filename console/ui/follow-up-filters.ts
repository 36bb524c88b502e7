/**
 * The follow-up dialog's outcome fields (issue 38, docs/CONSOLE.md "The follow-up dialog"): which of
 * the reached (sent, delivered, read: the `outcome` kind), replied or not, clicked or not, and the
 * quick-reply payloads tapped so far. Each is ANDed with the status selection by the API.
 */
import { REACHED_STATUSES, choiceFilter, type FollowUpKind, type OutcomeFilters } from '../model/follow-up';
import { el } from './dom';

export interface FilterFields {
  fields: HTMLElement[];
  statuses(): string[] | undefined;
  filters(): OutcomeFilters;
}

const STATUS_WORDS: Record<(typeof REACHED_STATUSES)[number], string> = { SENT: 'Sent (not delivered yet)', DELIVERED: 'Delivered (not read)', READ: 'Read' };

function choice(id: string, label: string, yes: string, no: string): { root: HTMLElement; select: HTMLSelectElement } {
  const select = el(
    'select',
    { id, name: id },
    el('option', { value: 'any' }, 'Either'),
    el('option', { value: 'yes' }, yes),
    el('option', { value: 'no' }, no),
  );
  return { root: el('div', { class: 'field' }, el('label', { for: id }, label), select), select };
}

function checkboxes(
  legend: string,
  prefix: string,
  values: readonly string[],
  words: (value: string) => string,
  checked: boolean,
): { root: HTMLElement; read(): string[] } {
  const boxes = values.map((value, index) => ({ value, box: el('input', { type: 'checkbox', id: `${prefix}-${index}`, checked }) }));
  const root = el(
    'fieldset',
    { class: 'field choices' },
    el('legend', {}, legend),
    ...boxes.map(({ value, box }) => el('div', { class: 'checkbox' }, box, el('label', { for: box.id }, words(value)))),
  );
  return { root, read: () => boxes.filter(({ box }) => box.checked).map(({ value }) => value) };
}

/** The fields for `kind` (none for the failed: they received nothing to reply to). */
export function filterFields(kind: FollowUpKind, tappedPayloads: readonly string[] = []): FilterFields {
  if (kind === 'failed') return { fields: [], statuses: () => undefined, filters: () => ({}) };
  const statuses =
    kind === 'outcome'
      ? checkboxes('Whose message was', 'fu-status', REACHED_STATUSES, (value) => STATUS_WORDS[value as keyof typeof STATUS_WORDS], true)
      : undefined;
  const replied = choice('fu-replied', 'Replies', 'Replied', 'Did not reply');
  const clicked = choice('fu-clicked', 'Clicks', 'Clicked', 'Did not click');
  const payloads =
    tappedPayloads.length > 0
      ? checkboxes('Tapped one of these buttons (none chosen: any)', 'fu-payload', tappedPayloads, (payload) => payload, false)
      : undefined;
  return {
    fields: [statuses?.root, replied.root, clicked.root, payloads?.root].filter((field): field is HTMLElement => field !== undefined),
    statuses: () => statuses?.read(),
    filters: () => {
      const chosen = payloads?.read() ?? [];
      const filters: OutcomeFilters = { replied: choiceFilter(replied.select.value), clicked: choiceFilter(clicked.select.value) };
      return chosen.length ? { ...filters, buttonPayloads: chosen } : filters;
    },
  };
}
