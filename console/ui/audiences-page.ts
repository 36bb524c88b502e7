/**
 * The audiences (`#/audiences`, docs/CONSOLE.md "Audiences"): the list, 20 a page, each with its
 * member and opted-out counts (`GET /audiences/{audienceId}`: the opted-out count is computed on each
 * read, so the list is read when opened, never on a timer), and a new audience from a CSV file.
 */
import { who } from './who';
import type { AudienceDetail, AudiencesPage, AudienceSummary } from '../model/api-types';
import { formatCount, formatTime } from '../model/format';
import { audienceHref } from '../model/route';
import { describeError, getData, sendEnvelope } from './api';
import { createImporter } from './csv-importer';
import { dataTable, el, notice, replaceChildren, section } from './dom';
import { renderPagedList } from './paged-list';
import type { PageHandle } from './router';

const PAGE_SIZE = 20;
const HEADERS = ['Name', 'Members', 'Opted out', 'Updated'];

type Row = AudienceSummary & { optedOutCount?: number };

const rowOf = (audience: Row): Array<Node | string> => [
  el('a', { href: audienceHref(audience.audienceId) }, audience.name),
  formatCount(audience.memberCount),
  audience.optedOutCount === undefined ? '—' : formatCount(audience.optedOutCount),
  formatTime(audience.updatedAt),
];

/** Creates an audience named `name` and answers its id. */
export async function createAudience(name: string): Promise<string> {
  const created = await sendEnvelope<{ audienceId: string }>('POST', '/audiences', { body: { name } });
  return created.data.audienceId;
}

/**
 * A name field and a CSV file: "Create and import" creates the audience, then imports the file into
 * it; once every page was sent a link to it is shown and `imported` gets its id and attribute names.
 */
export function newAudienceForm(id: string, imported: (audienceId: string, attributes: string[]) => void): HTMLElement {
  const name = el('input', { id: `${id}-name`, type: 'text', required: true, maxlength: 100 });
  const messages = el('div', { 'aria-live': 'polite' });
  const importer = createImporter({
    id,
    audience: () => createAudience(name.value.trim()),
    done: (result) => {
      if (result.failedPages > 0) return;
      replaceChildren(
        messages,
        el('p', { class: 'notice notice-info', role: 'status' }, 'Imported into ', el('a', { href: audienceHref(result.audienceId) }, name.value.trim()), '.'),
      );
      imported(result.audienceId, result.attributes);
    },
  });
  const button = el('button', { type: 'button', class: 'primary' }, 'Create and import');
  button.addEventListener('click', () => {
    if (name.value.trim() === '' || !importer.hasFile()) {
      replaceChildren(messages, notice('Give the audience a name and choose a CSV file.'));
      return;
    }
    replaceChildren(messages);
    button.disabled = true;
    void importer
      .start()
      .catch((error: unknown) => replaceChildren(messages, notice(describeError(error))))
      .finally(() => {
        button.disabled = false;
      });
  });
  return el(
    'div',
    { class: 'new-audience' },
    el('div', { class: 'field' }, el('label', { for: `${id}-name` }, 'New audience name'), name),
    importer.root,
    el('div', { class: 'actions' }, button),
    messages,
  );
}

export function renderAudiences(main: HTMLElement): PageHandle {
  const handle = renderPagedList<Row>(main, {
    tab: 'audiences',
    heading: 'Audiences',
    read: async (cursor) => {
      const page = await getData<AudiencesPage>('/audiences', { limit: PAGE_SIZE, cursor });
      // One detail read per shown audience: its opted-out count (a failed read leaves "—").
      const details = await Promise.all(
        page.audiences.map((audience) => getData<AudienceDetail>(`/audiences/${encodeURIComponent(audience.audienceId)}`).catch(() => undefined)),
      );
      return { items: page.audiences.map((audience, index) => ({ ...audience, optedOutCount: details[index]?.optedOutCount })), nextCursor: page.nextCursor };
    },
    table: (items) => dataTable('Audiences: contacts first, then newest first', HEADERS, items.map(rowOf), { class: 'audiences' }),
    empty: 'No audiences yet.',
    changing: () => false,
  });
  if (who.allows('createAudience'))
    main.append(
      section(
        'new-audience-title',
        'New audience from a CSV file',
        newAudienceForm('new-audience', () => void handle.reload()),
      ),
    );
  return handle;
}
