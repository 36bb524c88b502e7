/** The campaign list (`GET /campaigns`): newest first, a page at a time; refreshes itself while a shown campaign still changes. */
import type { CampaignsPage, CampaignView } from '../model/api-types';
import { campaignChangesByItself, campaignProgressOf, campaignStateLabels, campaignStateNoteOf } from '../model/campaign-state';
import { formatCount, formatTime } from '../model/format';
import { campaignHref } from '../model/route';
import { getData } from './api';
import { dataTable, el, progressBar, stateBadge } from './dom';
import { renderPagedList } from './paged-list';
import type { PageHandle } from './router';

const PAGE_SIZE = 20;
const HEADERS = ['Name', 'Template', 'State', 'Progress', 'Counts', 'Created', 'Scheduled'];

/** A campaign's state badge with its note (when it goes on, who paused it). */
export const campaignBadge = (view: CampaignView): HTMLElement => stateBadge(view.state, campaignStateLabels[view.state], campaignStateNoteOf(view));

/** Sendable members done so far, of the sendable. */
export function campaignProgressCell(view: CampaignView): HTMLElement {
  const { settled, percent } = campaignProgressOf(view.totals);
  return progressBar(formatCount(settled), formatCount(view.totals.sendable), percent, 'sendable done');
}

const countsOf = ({ totals }: CampaignView): string =>
  `audience ${formatCount(totals.audience)} · sent ${formatCount(totals.sent)} · delivered ${formatCount(totals.delivered)} · read ${formatCount(totals.read)} · failed ${formatCount(totals.failed)}`;

const rowOf = (view: CampaignView): Array<Node | string> => [
  el('a', { href: campaignHref(view.campaignId) }, view.name),
  `${view.template.name} (${view.template.language})`,
  campaignBadge(view),
  campaignProgressCell(view),
  countsOf(view),
  formatTime(view.createdAt),
  view.scheduledAt ? formatTime(view.scheduledAt) : '—',
];

export function renderCampaignList(main: HTMLElement): PageHandle {
  return renderPagedList<CampaignView>(main, {
    tab: 'campaigns',
    heading: 'Campaigns',
    read: async (cursor) => {
      const page = await getData<CampaignsPage>('/campaigns', { limit: PAGE_SIZE, cursor });
      return { items: page.campaigns, nextCursor: page.nextCursor };
    },
    table: (items) => dataTable('Campaigns, newest first', HEADERS, items.map(rowOf), { class: 'audience-campaigns' }),
    empty: 'No campaigns yet. Make one with New campaign, the API or `npx wa-broadcast campaign create` (docs/CAMPAIGNS.md).',
    changing: (view) => campaignChangesByItself(view.state),
  });
}
