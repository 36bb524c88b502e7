/**
 * An audience's members on its page (docs/CONSOLE.md "Audiences"): 100 a page by the API's cursor,
 * a search of the loaded page (the API has no member search: decision in the docs), and removing the
 * members chosen (`DELETE /audiences/{audienceId}/members` with their numbers or user ids).
 */
import type { AudienceMemberRow, MembersPage } from '../model/api-types';
import { memberMatches } from '../model/campaign-draft';
import { addressOf, formatCount, formatTime } from '../model/format';
import { describeError, getData, sendEnvelope } from './api';
import { announce, dataTable, el, notice, replaceChildren } from './dom';

const PAGE_SIZE = 100;

const identityOf = (member: AudienceMemberRow) =>
  member.toPhoneNumber ? { countryCode: member.countryCode, toPhoneNumber: member.toPhoneNumber } : { userId: member.userId! };
const attributesText = (member: AudienceMemberRow) =>
  Object.entries(member.attributes)
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join(', ') || '—';

export interface MembersTable {
  root: HTMLElement;
  removeButton: HTMLButtonElement;
  read(): Promise<void>;
}

/** `changed` runs after members were removed (the page's counts change). */
export function createMembersTable(path: string, messages: HTMLElement, changed: () => void): MembersTable {
  const search = el('input', { id: 'member-search', type: 'search', 'aria-describedby': 'member-search-help' });
  const table = el('div');
  const cursors: Array<string | undefined> = [undefined];
  let pageIndex = 0;
  let loaded: AudienceMemberRow[] = [];
  let nextCursor: string | null = null;
  const chosen = new Set<AudienceMemberRow>();

  const rowOf = (member: AudienceMemberRow) => {
    const box = el('input', { type: 'checkbox', 'aria-label': `Choose ${addressOf(member)}`, checked: chosen.has(member) });
    box.addEventListener('change', () => (box.checked ? chosen.add(member) : chosen.delete(member)));
    return [box, addressOf(member), attributesText(member), member.tags.join(', ') || '—', formatTime(member.updatedAt)];
  };
  const draw = () => {
    const shown = loaded.filter((member) => memberMatches(member, search.value));
    const previous = el('button', { type: 'button', disabled: pageIndex === 0, onclick: () => void go(-1) }, 'Previous');
    const next = el('button', { type: 'button', disabled: !nextCursor, onclick: () => void go(1) }, 'Next');
    replaceChildren(
      table,
      el('p', { class: 'help', role: 'status' }, `${formatCount(shown.length)} of ${formatCount(loaded.length)} members of page ${pageIndex + 1} shown`),
      dataTable(`Members, page ${pageIndex + 1}`, ['Choose', 'Member', 'Attributes', 'Tags', 'Updated'], shown.map(rowOf), { class: 'members' }),
      el('nav', { class: 'pager', 'aria-label': 'Member pages' }, previous, ` Page ${pageIndex + 1} `, next),
    );
  };
  const read = async () => {
    try {
      const page = await getData<MembersPage>(`${path}/members`, { limit: PAGE_SIZE, cursor: cursors[pageIndex] });
      loaded = page.members;
      nextCursor = page.nextCursor;
      cursors[pageIndex + 1] = page.nextCursor ?? undefined;
      chosen.clear();
      draw();
    } catch (error) {
      replaceChildren(table, notice(describeError(error)));
    }
  };
  const go = async (step: number) => {
    pageIndex += step;
    await read();
    announce(`Members page ${pageIndex + 1}`);
  };
  const removeButton = el('button', { type: 'button', class: 'danger' }, 'Remove chosen members');
  removeButton.addEventListener('click', () => {
    const rows = [...chosen];
    if (rows.length === 0) return void replaceChildren(messages, notice('Choose the members to remove first.', 'info'));
    if (!window.confirm(`Remove ${rows.length} members from this audience?`)) return;
    void sendEnvelope<{ removed: number }>('DELETE', `${path}/members`, { body: { members: rows.map(identityOf) } })
      .then((answer) => {
        replaceChildren(messages, notice(`${formatCount(answer.data.removed)} members removed.`, 'info'));
        changed();
        return read();
      })
      .catch((error: unknown) => replaceChildren(messages, notice(describeError(error))));
  });
  search.addEventListener('input', draw);
  const root = el(
    'div',
    {},
    el('div', { class: 'field' }, el('label', { for: 'member-search' }, 'Search this page'), search),
    el(
      'p',
      { id: 'member-search-help', class: 'help' },
      'Matches the number (with or without the country code), user id, tags and attribute values of the members on this page.',
    ),
    table,
  );
  return { root, removeButton, read };
}
