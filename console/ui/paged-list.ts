/**
 * A list page of the console: the tabs between broadcasts and campaigns, a table a page at a time
 * (newer/older by the API's cursor), read again every 10 s while any shown entry still changes.
 */
import { who } from './who';
import { describeError } from './api';
import { announce, el, notice, replaceChildren } from './dom';
import type { PageHandle } from './router';

/** The list and every status read of a key share 30 requests a minute: 10 s keeps well inside it. */
const REFRESH_MS = 10_000;

export type ListTab = 'broadcasts' | 'campaigns' | 'audiences' | 'templates';

const TABS: ReadonlyArray<{ tab: ListTab; label: string; href: string }> = [
  { tab: 'broadcasts', label: 'Broadcasts', href: '#/' },
  { tab: 'campaigns', label: 'Campaigns', href: '#/campaigns' },
  { tab: 'audiences', label: 'Audiences', href: '#/audiences' },
  { tab: 'templates', label: 'Templates', href: '#/templates' },
];

/** The two lists as tabs (links: each list has its own address, the back button works). */
export const listTabs = (current?: ListTab): HTMLElement =>
  el(
    'nav',
    { class: 'tabs', 'aria-label': 'Lists' },
    ...TABS.map(({ tab, label, href }) => el('a', { href, class: 'tab', 'aria-current': tab === current ? 'page' : undefined }, label)),
    // The builder's way in, beside the lists (docs/CONSOLE.md "New campaign").
    // Shown only to who may create one (a viewer's would be refused: console/model/roles.ts).
    who.allows('createCampaign') ? el('a', { href: '#/campaigns/new', class: 'button-link new-campaign' }, 'New campaign') : undefined,
  );

export interface PagedListOptions<T> {
  tab: ListTab;
  heading: string;
  /** The page after `cursor` (the first without). */
  read(cursor: string | undefined): Promise<{ items: T[]; nextCursor: string | null }>;
  table(items: readonly T[]): HTMLElement;
  /** Said when the first page is empty. */
  empty: string;
  /** Whether an entry still changes by itself (the list reads itself again while one does). */
  changing(item: T): boolean;
}

export function renderPagedList<T>(main: HTMLElement, options: PagedListOptions<T>): PageHandle & { reload(): Promise<void> } {
  const cursors: Array<string | undefined> = [undefined];
  let pageIndex = 0;
  let timer: number | undefined;
  const heading = el('h2', { tabindex: -1 }, options.heading);
  const body = el('div', {}, el('p', {}, 'Loading…'));
  replaceChildren(main, listTabs(options.tab), heading, body);

  const load = async () => {
    window.clearTimeout(timer);
    try {
      const page = await options.read(cursors[pageIndex]);
      cursors[pageIndex + 1] = page.nextCursor ?? undefined;
      replaceChildren(body, ...pageContent(page));
      if (page.items.some(options.changing)) timer = window.setTimeout(() => void load(), REFRESH_MS);
    } catch (error) {
      replaceChildren(body, notice(describeError(error)));
    }
  };

  const pageContent = (page: { items: T[]; nextCursor: string | null }): Node[] => {
    if (page.items.length === 0 && pageIndex === 0) return [el('p', {}, options.empty)];
    const previous = el('button', { type: 'button', disabled: pageIndex === 0, onclick: () => void go(-1) }, 'Newer');
    const next = el('button', { type: 'button', disabled: !page.nextCursor, onclick: () => void go(1) }, 'Older');
    return [options.table(page.items), el('nav', { class: 'pager', 'aria-label': `${options.heading} pages` }, previous, ` Page ${pageIndex + 1} `, next)];
  };

  const go = async (step: number) => {
    pageIndex += step;
    await load();
    announce(`${options.heading} page ${pageIndex + 1}`);
  };

  void load();
  heading.focus();
  return { leave: () => window.clearTimeout(timer), reload: load };
}
