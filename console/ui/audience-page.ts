/**
 * One audience (`#/audiences/<audienceId>`, docs/CONSOLE.md "Audiences"): its counts (members, opted
 * out, by country), its members a page at a time with a search of the loaded page, removing chosen
 * members, deleting the audience, and importing a CSV file into it.
 */
import type { AudienceDetail, AudienceMemberRow, MembersPage } from '../model/api-types';
import { memberMatches } from '../model/campaign-draft';
import { addressOf, formatCount, formatTime } from '../model/format';
import { ApiError, describeError, getData, sendData } from './api';
import { createImporter } from './csv-importer';
import { announce, dataTable, el, factList, notice, replaceChildren, section } from './dom';
import type { PageHandle } from './router';

const PAGE_SIZE = 100;
/** A DELETE removes up to 20,000 members and says to call again while more are left (docs/CAMPAIGNS.md "Deleting"). */
const MAX_DELETE_CALLS = 100;

const identityOf = (member: AudienceMemberRow) => (member.toPhoneNumber ? { countryCode: member.countryCode, toPhoneNumber: member.toPhoneNumber } : { userId: member.userId! });
const attributesText = (member: AudienceMemberRow) => Object.entries(member.attributes).map(([name, value]) => `${name}: ${String(value)}`).join(', ') || '—';

function factsOf(audience: AudienceDetail): HTMLElement {
  const countries = Object.entries(audience.byCountry).sort(([, a], [, b]) => b - a).map(([code, count]) => `${code === 'unknown' ? 'unknown' : `+${code}`} ${formatCount(count)}`).join(' · ');
  return factList([
    ['Members', formatCount(audience.memberCount)],
    ['Opted out', formatCount(audience.optedOutCount)],
    ['By country', countries || '—'],
    ['Created', formatTime(audience.createdAt)],
    ['Updated', formatTime(audience.updatedAt)],
    ['Audience', audience.audienceId],
  ]);
}

async function deleteWhole(path: string): Promise<void> {
  for (let calls = 0; calls < MAX_DELETE_CALLS; calls += 1) {
    try {
      const answer = await sendData<unknown>('DELETE', path);
      if (!/again/i.test(answer.message)) return;
    } catch (error) {
      // Gone: the previous call removed the last members.
      if (error instanceof ApiError && error.status === 404 && calls > 0) return;
      throw error;
    }
  }
}

export function renderAudience(main: HTMLElement, audienceId: string): PageHandle {
  const path = `/audiences/${encodeURIComponent(audienceId)}`;
  const heading = el('h2', { tabindex: -1 }, 'Audience');
  const facts = el('div', {}, el('p', {}, 'Loading…'));
  const messages = el('div', { 'aria-live': 'polite' });
  const members = el('div');
  const search = el('input', { id: 'member-search', type: 'search', 'aria-describedby': 'member-search-help' });
  const cursors: Array<string | undefined> = [undefined];
  let pageIndex = 0;
  let loaded: AudienceMemberRow[] = [];
  let nextCursor: string | null = null;
  const chosen = new Set<AudienceMemberRow>();
  let left = false;

  const readFacts = async () => {
    try {
      const audience = await getData<AudienceDetail>(path);
      replaceChildren(heading, audience.name);
      replaceChildren(facts, factsOf(audience));
    } catch (error) {
      replaceChildren(heading, error instanceof ApiError && error.status === 404 ? 'Audience not found' : 'Audience');
      replaceChildren(facts, notice(describeError(error)));
    }
  };

  const drawMembers = () => {
    const shown = loaded.filter((member) => memberMatches(member, search.value));
    const rows = shown.map((member) => {
      const box = el('input', { type: 'checkbox', 'aria-label': `Choose ${addressOf(member)}`, checked: chosen.has(member) });
      box.addEventListener('change', () => (box.checked ? chosen.add(member) : chosen.delete(member)));
      return [box, addressOf(member), attributesText(member), member.tags.join(', ') || '—', formatTime(member.updatedAt)];
    });
    const previous = el('button', { type: 'button', disabled: pageIndex === 0, onclick: () => void go(-1) }, 'Previous');
    const next = el('button', { type: 'button', disabled: !nextCursor, onclick: () => void go(1) }, 'Next');
    replaceChildren(
      members,
      el('p', { class: 'help', role: 'status' }, `${formatCount(shown.length)} of ${formatCount(loaded.length)} members of page ${pageIndex + 1} shown`),
      dataTable(`Members, page ${pageIndex + 1}`, ['Choose', 'Member', 'Attributes', 'Tags', 'Updated'], rows, { class: 'members' }),
      el('nav', { class: 'pager', 'aria-label': 'Member pages' }, previous, ` Page ${pageIndex + 1} `, next),
    );
  };

  const readMembers = async () => {
    try {
      const page = await getData<MembersPage>(`${path}/members`, { limit: PAGE_SIZE, cursor: cursors[pageIndex] });
      if (left) return;
      loaded = page.members;
      nextCursor = page.nextCursor;
      cursors[pageIndex + 1] = page.nextCursor ?? undefined;
      chosen.clear();
      drawMembers();
    } catch (error) {
      replaceChildren(members, notice(describeError(error)));
    }
  };

  const go = async (step: number) => {
    pageIndex += step;
    await readMembers();
    announce(`Members page ${pageIndex + 1}`);
  };

  const reload = async () => {
    await Promise.all([readFacts(), readMembers()]);
  };

  const remove = el('button', { type: 'button', class: 'danger' }, 'Remove chosen members');
  remove.addEventListener('click', () => {
    const rows = [...chosen];
    if (rows.length === 0) return void replaceChildren(messages, notice('Choose the members to remove first.', 'info'));
    if (!window.confirm(`Remove ${rows.length} members from this audience?`)) return;
    void sendData<{ removed: number }>('DELETE', `${path}/members`, { body: { members: rows.map(identityOf) } })
      .then((answer) => {
        replaceChildren(messages, notice(`${formatCount(answer.data.removed)} members removed.`, 'info'));
        return reload();
      })
      .catch((error: unknown) => replaceChildren(messages, notice(describeError(error))));
  });
  const deleteButton = el('button', { type: 'button', class: 'danger' }, 'Delete audience');
  deleteButton.addEventListener('click', () => {
    if (!window.confirm('Delete this audience and all its members? Campaigns naming it will be refused.')) return;
    deleteButton.disabled = true;
    void deleteWhole(path)
      .then(() => {
        announce('Audience deleted');
        window.location.hash = '#/audiences';
      })
      .catch((error: unknown) => {
        deleteButton.disabled = false;
        replaceChildren(messages, notice(describeError(error)));
      });
  });
  search.addEventListener('input', drawMembers);
  const importer = createImporter({ id: 'audience-import', audience: async () => audienceId, done: () => void reload() });
  const importButton = el('button', { type: 'button' }, 'Import into this audience');
  importButton.addEventListener('click', () => void importer.start());

  replaceChildren(
    main,
    el('p', {}, el('a', { href: '#/audiences' }, '← All audiences')),
    heading,
    facts,
    el('div', { class: 'actions', role: 'group', 'aria-label': 'Audience actions' }, remove, deleteButton),
    messages,
    section(
      'members-title',
      'Members',
      el('div', { class: 'field' }, el('label', { for: 'member-search' }, 'Search this page'), search),
      el('p', { id: 'member-search-help', class: 'help' }, 'Matches the number (with or without the country code), user id, tags and attribute values of the members on this page.'),
      members,
    ),
    section('import-title', 'Import a CSV file into this audience', importer.root, el('div', { class: 'actions' }, importButton)),
  );
  void reload();
  heading.focus();
  return {
    leave: () => {
      left = true;
    },
  };
}
