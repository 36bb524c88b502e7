/**
 * `#/audit-log` (admins): every state-changing call, newest first, a page of 50 at a time (newer /
 * older by the API's cursor), filtered by person (the people list's ids) and by action.
 */
import { actorWords, outcomeWords, targetWords, type AuditPage, type AuditRow, type PersonRow } from '../model/admin';
import { formatTime } from '../model/format';
import { describeError, getData } from './api';
import { announce, dataTable, el, notice, replaceChildren } from './dom';
import type { PageHandle } from './router';

const PAGE_SIZE = 50;

export function renderAuditLog(main: HTMLElement): PageHandle {
  const person = el('select', { id: 'audit-person', name: 'actorId' }, el('option', { value: '' }, 'Everyone'));
  const action = el('input', { id: 'audit-action', name: 'action', type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: 'e.g. invitePerson' });
  const body = el('div', {}, el('p', {}, 'Loading…'));
  const cursors: Array<string | undefined> = [undefined];
  let pageIndex = 0;

  const load = async () => {
    try {
      const page = await getData<AuditPage>('/audit-log', {
        limit: PAGE_SIZE,
        actorId: person.value || undefined,
        action: action.value.trim() || undefined,
        cursor: cursors[pageIndex],
      });
      cursors[pageIndex + 1] = page.nextCursor ?? undefined;
      replaceChildren(body, ...content(page));
      announce(`Audit log page ${pageIndex + 1}`);
    } catch (error) {
      replaceChildren(body, notice(describeError(error)));
    }
  };
  const go = (step: number) => {
    pageIndex += step;
    void load();
  };
  const content = (page: AuditPage): Node[] => {
    if (page.entries.length === 0 && pageIndex === 0) return [el('p', {}, 'No entries.')];
    const newer = el('button', { type: 'button', disabled: pageIndex === 0, onclick: () => go(-1) }, 'Newer');
    const older = el('button', { type: 'button', disabled: !page.nextCursor, onclick: () => go(1) }, 'Older');
    return [auditTable(page.entries, pageIndex), el('nav', { class: 'pager', 'aria-label': 'Audit log pages' }, newer, ` Page ${pageIndex + 1} `, older)];
  };

  const filter = el(
    'form',
    { class: 'card filter', 'aria-label': 'Filter the audit log' },
    el('div', { class: 'field' }, el('label', { for: 'audit-person' }, 'Person'), person),
    el('div', { class: 'field' }, el('label', { for: 'audit-action' }, 'Action'), action),
    el('button', { type: 'submit' }, 'Filter'),
  );
  filter.addEventListener('submit', (event) => {
    event.preventDefault();
    cursors.length = 1;
    pageIndex = 0;
    void load();
  });
  replaceChildren(main, el('h2', { tabindex: -1 }, 'Audit log'), filter, body);
  void fillPeople(person);
  void load();
  return { leave: () => undefined };
}

/** The person filter's choices; without the people list (a refusal, an older service) it stays "Everyone". */
async function fillPeople(select: HTMLSelectElement): Promise<void> {
  const people = await getData<{ people: PersonRow[] }>('/people').then(
    (data) => data.people,
    () => [],
  );
  for (const person of people) select.append(el('option', { value: person.personId }, person.email));
}

const auditTable = (entries: readonly AuditRow[], pageIndex: number): HTMLElement =>
  dataTable(
    `Audit log, newest first, page ${pageIndex + 1}`,
    ['When', 'Who', 'Action', 'Target', 'Outcome', 'From'],
    entries.map((entry) => [formatTime(entry.at), actorWords(entry.actor), entry.action, targetWords(entry), outcomeWords(entry), entry.sourceIp ?? '']),
    { class: 'audit-log' },
  );
