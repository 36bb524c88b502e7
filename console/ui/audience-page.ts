/**
 * One audience (`#/audiences/<audienceId>`, docs/CONSOLE.md "Audiences"): its counts (members, opted
 * out, by country), its members (audience-members.ts: pages, search, removing), deleting the
 * audience, and importing a CSV file into it.
 */
import { who } from './who';
import type { AudienceDetail } from '../model/api-types';
import { formatCount, formatTime } from '../model/format';
import { ApiError, describeError, getData, sendEnvelope } from './api';
import { createMembersTable } from './audience-members';
import { createImporter } from './csv-importer';
import { announce, el, factList, notice, replaceChildren, section } from './dom';
import type { PageHandle } from './router';

/** A DELETE removes up to 20,000 members and says to call again while more are left (docs/CAMPAIGNS.md "Deleting"). */
const MAX_DELETE_CALLS = 100;

function factsOf(audience: AudienceDetail): HTMLElement {
  const countries = Object.entries(audience.byCountry)
    .sort(([, a], [, b]) => b - a)
    .map(([code, count]) => `${code === 'unknown' ? 'unknown' : `+${code}`} ${formatCount(count)}`)
    .join(' · ');
  return factList([
    ['Members', formatCount(audience.memberCount)],
    ['Opted out', formatCount(audience.optedOutCount)],
    ['By country', countries || '—'],
    ['Created', formatTime(audience.createdAt)],
    ['Updated', formatTime(audience.updatedAt)],
    ['Audience', audience.audienceId],
  ]);
}

/** Deletes the audience, calling again while the API says members are still being removed. */
async function deleteWhole(path: string): Promise<void> {
  for (let calls = 0; calls < MAX_DELETE_CALLS; calls += 1) {
    try {
      const answer = await sendEnvelope<unknown>('DELETE', path);
      if (!/again/i.test(answer.message)) return;
    } catch (error) {
      // Gone: the previous call removed the last members.
      if (error instanceof ApiError && error.status === 404 && calls > 0) return;
      throw error;
    }
  }
}

function deleteButtonOf(path: string, messages: HTMLElement): HTMLButtonElement {
  const button = el('button', { type: 'button', class: 'danger' }, 'Delete audience');
  button.addEventListener('click', () => {
    if (!window.confirm('Delete this audience and all its members? Campaigns naming it will be refused.')) return;
    button.disabled = true;
    void deleteWhole(path)
      .then(() => {
        announce('Audience deleted');
        window.location.hash = '#/audiences';
      })
      .catch((error: unknown) => {
        button.disabled = false;
        replaceChildren(messages, notice(describeError(error)));
      });
  });
  return button;
}

export function renderAudience(main: HTMLElement, audienceId: string): PageHandle {
  const path = `/audiences/${encodeURIComponent(audienceId)}`;
  const heading = el('h2', { tabindex: -1 }, 'Audience');
  const facts = el('div', {}, el('p', {}, 'Loading…'));
  const messages = el('div', { 'aria-live': 'polite' });
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
  const members = createMembersTable(path, messages, () => void readFacts());
  const importer = createImporter({ id: 'audience-import', audience: async () => audienceId, done: () => void Promise.all([readFacts(), members.read()]) });
  const importButton = el('button', { type: 'button' }, 'Import into this audience');
  importButton.addEventListener('click', () => void importer.start());

  replaceChildren(
    main,
    el('p', {}, el('a', { href: '#/audiences' }, '← All audiences')),
    heading,
    facts,
    // Each control only for a role the API would allow (console/model/roles.ts).
    el(
      'div',
      { class: 'actions', role: 'group', 'aria-label': 'Audience actions' },
      who.allows('removeMembers') ? members.removeButton : undefined,
      who.allows('deleteAudience') ? deleteButtonOf(path, messages) : undefined,
    ),
    messages,
    section('members-title', 'Members', members.root),
    who.allows('upsertMembers')
      ? section('import-title', 'Import a CSV file into this audience', importer.root, el('div', { class: 'actions' }, importButton))
      : undefined,
  );
  void readFacts();
  void members.read();
  heading.focus();
  return { leave: () => undefined };
}
