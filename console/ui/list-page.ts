/** The campaign list: newest first, a page at a time; refreshes itself while any shown job is not finished. */
import type { BroadcastListItem, BroadcastsPage } from '../model/api-types';
import { formatCount, formatTime } from '../model/format';
import { isFinished, progressOf, stateNoteOf, statusLabels } from '../model/job-state';
import { describeError, getData } from './api';
import { announce, dataTable, el, notice, replaceChildren } from './dom';
import { remember } from './job-cache';
import type { PageHandle } from './router';

const PAGE_SIZE = 20;
/** The list and every status read of a key share 30 requests a minute: 10 s keeps well inside it. */
const REFRESH_MS = 10_000;

export function statusBadge(item: { status: BroadcastListItem['status']; summary: BroadcastListItem['summary'] }): HTMLElement {
  const note = stateNoteOf(item.status, item.summary);
  return el('span', {}, el('span', { class: `badge badge-${item.status.toLowerCase()}` }, statusLabels[item.status]), note ? el('span', { class: 'state-note' }, ` ${note}`) : null);
}

export function progressCell(item: { summary: BroadcastListItem['summary']; totalRecipients: number }): HTMLElement {
  const { settled, percent } = progressOf(item.summary, item.totalRecipients);
  const label = `${formatCount(settled)} of ${formatCount(item.totalRecipients)} settled`;
  return el('span', { class: 'progress-cell' }, el('progress', { max: 100, value: percent, 'aria-label': label }), ` ${percent}%`);
}

const countsOf = (item: BroadcastListItem): string =>
  `sent ${formatCount(item.summary.sent)} · delivered ${formatCount(item.summary.delivered)} · read ${formatCount(item.summary.read)} · failed ${formatCount(item.summary.failed)}`;

function rowOf(item: BroadcastListItem): Array<Node | string> {
  const name = item.broadcastName ?? item.jobId;
  return [
    el('a', { href: `#/campaigns/${encodeURIComponent(item.jobId)}` }, name),
    item.template ? `${item.template.name} (${item.template.language})` : item.kind,
    statusBadge(item),
    progressCell(item),
    countsOf(item),
    formatTime(item.createdAt),
    item.scheduledAt ? formatTime(item.scheduledAt) : '—',
    item.followUpOf ? el('a', { href: `#/campaigns/${encodeURIComponent(item.followUpOf)}` }, 'original') : '—',
  ];
}

export function renderList(main: HTMLElement): PageHandle {
  const cursors: Array<string | undefined> = [undefined];
  let pageIndex = 0;
  let timer: number | undefined;
  const heading = el('h2', { tabindex: -1 }, 'Campaigns');
  const body = el('div', {}, el('p', {}, 'Loading…'));
  replaceChildren(main, heading, body);

  const load = async () => {
    window.clearTimeout(timer);
    try {
      const page = await getData<BroadcastsPage>('/broadcasts', { limit: PAGE_SIZE, cursor: cursors[pageIndex] });
      remember(page.broadcasts);
      cursors[pageIndex + 1] = page.nextCursor ?? undefined;
      replaceChildren(body, ...pageContent(page));
      if (page.broadcasts.some((item) => !isFinished(item.status))) timer = window.setTimeout(() => void load(), REFRESH_MS);
    } catch (error) {
      replaceChildren(body, notice(describeError(error)));
    }
  };

  const pageContent = (page: BroadcastsPage): Node[] => {
    if (page.broadcasts.length === 0 && pageIndex === 0) return [el('p', {}, 'No campaigns yet.')];
    const headers = ['Name', 'Template', 'Status', 'Progress', 'Counts', 'Created', 'Scheduled', 'Follow-up of'];
    const previous = el('button', { type: 'button', disabled: pageIndex === 0, onclick: () => void go(-1) }, 'Newer');
    const next = el('button', { type: 'button', disabled: !page.nextCursor, onclick: () => void go(1) }, 'Older');
    return [dataTable('Campaigns, newest first', headers, page.broadcasts.map(rowOf), { class: 'campaigns' }), el('nav', { class: 'pager', 'aria-label': 'Campaign pages' }, previous, ` Page ${pageIndex + 1} `, next)];
  };

  const go = async (step: number) => {
    pageIndex += step;
    await load();
    announce(`Campaigns page ${pageIndex + 1}`);
  };

  void load();
  heading.focus();
  return { leave: () => window.clearTimeout(timer) };
}
