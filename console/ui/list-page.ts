/** The broadcast list: newest first, a page at a time; refreshes itself while any shown job is not finished. */
import type { BroadcastListItem, BroadcastsPage } from '../model/api-types';
import { formatCount, formatTime } from '../model/format';
import { isFinished, progressOf, stateNoteOf, statusLabels } from '../model/job-state';
import { campaignHref } from '../model/route';
import { getData } from './api';
import { dataTable, el, progressBar, stateBadge } from './dom';
import { remember } from './job-cache';
import { renderPagedList } from './paged-list';
import type { PageHandle } from './router';

const PAGE_SIZE = 20;
const HEADERS = ['Name', 'Template', 'Status', 'Progress', 'Counts', 'Created', 'Scheduled', 'Follow-up of'];

export function statusBadge(item: { status: BroadcastListItem['status']; summary: BroadcastListItem['summary'] }): HTMLElement {
  return stateBadge(item.status, statusLabels[item.status], stateNoteOf(item.status, item.summary));
}

export function progressCell(item: { summary: BroadcastListItem['summary']; totalRecipients: number }): HTMLElement {
  const { settled, percent } = progressOf(item.summary, item.totalRecipients);
  return progressBar(formatCount(settled), formatCount(item.totalRecipients), percent, 'settled');
}

const countsOf = (item: BroadcastListItem): string =>
  `sent ${formatCount(item.summary.sent)} · delivered ${formatCount(item.summary.delivered)} · read ${formatCount(item.summary.read)} · failed ${formatCount(item.summary.failed)}`;

function rowOf(item: BroadcastListItem): Array<Node | string> {
  const name = item.broadcastName ?? item.jobId;
  return [
    el('a', { href: campaignHref(item.jobId) }, name),
    item.template ? `${item.template.name} (${item.template.language})` : item.kind,
    statusBadge(item),
    progressCell(item),
    countsOf(item),
    formatTime(item.createdAt),
    item.scheduledAt ? formatTime(item.scheduledAt) : '—',
    item.followUpOf ? el('a', { href: campaignHref(item.followUpOf) }, 'original') : '—',
  ];
}

export function renderList(main: HTMLElement): PageHandle {
  return renderPagedList<BroadcastListItem>(main, {
    tab: 'broadcasts',
    heading: 'Broadcasts',
    read: async (cursor) => {
      const page = await getData<BroadcastsPage>('/broadcasts', { limit: PAGE_SIZE, cursor });
      remember(page.broadcasts);
      return { items: page.broadcasts, nextCursor: page.nextCursor };
    },
    table: (items) => dataTable('Broadcasts, newest first', HEADERS, items.map(rowOf), { class: 'campaigns' }),
    empty: 'No broadcasts yet.',
    changing: (item) => !isFinished(item.status),
  });
}
