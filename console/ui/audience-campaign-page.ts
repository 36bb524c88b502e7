/**
 * One campaign (`#/campaigns/cmp_…`), across its whole audience: its state (with when a campaign
 * waiting for the messaging limit goes on, and who paused it), the funnel from the audience to read,
 * cost, failures by code, who was left out at expansion, the recipient table, and pause, resume,
 * cancel and follow-ups. Read every 5 s while it changes by itself (docs/CONSOLE.md "Campaigns").
 */
import type { CampaignView } from '../model/api-types';
import { campaignChangesByItself } from '../model/campaign-state';
import { formatCount, formatTime } from '../model/format';
import { campaignFunnelOf, skippedRowsOf } from '../model/funnel';
import { campaignHref } from '../model/route';
import { getData } from './api';
import { createAudienceCampaignActions } from './audience-campaign-actions';
import { createSections } from './campaign-sections';
import { campaignBadge, campaignProgressCell } from './campaigns-list-page';
import { dataTable, el, factList, notice, replaceChildren, section } from './dom';
import { createPoller } from './page-poller';
import { reasonTable } from './reasons';
import { createRecipientsTable } from './recipients-table';
import { createHaltSection, respectFacts } from './respect-sections';
import type { PageHandle } from './router';

const REFRESH_MS = 5_000;

function headerOf(view: CampaignView): Node[] {
  const { audience, template } = view;
  return [
    el('p', { class: 'state' }, campaignBadge(view), ' ', campaignProgressCell(view)),
    factList([
      ['Template', `${template.name} (${template.language}, ${template.category})`],
      ['Sender', view.fromPhoneNumber],
      ['Audiences', audience.audienceIds.join(', ') || '—'],
      ['Excluded', audience.excludeAudienceIds?.length ? audience.excludeAudienceIds.join(', ') : '—'],
      ['Created', formatTime(view.createdAt)],
      ['Scheduled', formatTime(view.scheduledAt)],
      ['Launched', formatTime(view.launchedAt)],
      ['Started', formatTime(view.startedAt)],
      ['Finished', formatTime(view.finishedAt)],
      ...(view.state === 'WAITING_FOR_LIMIT' ? [['Goes on at', formatTime(view.waitingUntil)] as const] : []),
      ...(view.holdout ? [['Held out', `${view.holdout.percent} % of the audience, never sent`] as const] : []),
      ...(view.attributionWindowHours ? [['Attribution window', `${formatCount(view.attributionWindowHours)} hours`] as const] : []),
      ['Campaign', view.campaignId],
      ['Job', view.jobId ? el('a', { href: campaignHref(view.jobId) }, view.jobId) : '—'],
      ...respectFacts(view.totals, view.state === 'PAUSED' ? view.pause : undefined, view),
    ]),
  ];
}

function skippedContent(view: CampaignView): Node {
  const rows = skippedRowsOf(view.skippedByReason);
  if (rows.length === 0) return el('p', {}, 'Nobody left out.');
  return dataTable(
    'Members left out at expansion, by reason',
    ['Reason', 'Members', 'What it means'],
    rows.map((row) => [row.reason, formatCount(row.count), row.meaning]),
    { class: 'skipped' },
  );
}

export function renderAudienceCampaign(main: HTMLElement, campaignId: string): PageHandle {
  let campaign: CampaignView | undefined;
  const heading = el('h2', { tabindex: -1 }, 'Campaign');
  const header = el('div', {}, el('p', {}, 'Loading…'));
  const messages = el('div');
  const sections = createSections({
    perMinute: false,
    funnelLabel: 'Funnel: audience, sendable, sent, delivered, read, replied and clicked, and skipped, opted out, failed and held out beside them',
  });
  const skipped = el('div');
  sections.root.append(section('skipped-title', 'Left out', skipped));
  const halt = createHaltSection();
  sections.root.prepend(halt.root);
  const path = `/campaigns/${encodeURIComponent(campaignId)}`;
  const recipients = createRecipientsTable({ path: `${path}/recipients`, id: campaignId });

  const poller = createPoller({
    intervalMs: REFRESH_MS,
    messages,
    read: async (shown) => {
      const [view, reasons] = await Promise.all([getData<CampaignView>(path), reasonTable()]);
      if (!shown()) return false;
      campaign = view;
      replaceChildren(heading, view.name);
      replaceChildren(header, ...headerOf(view));
      sections.update(
        { bars: campaignFunnelOf(view.totals), cost: view.cost, failuresByCode: view.failuresByCode, outcomes: view.totals, lift: view.lift },
        reasons,
      );
      replaceChildren(skipped, skippedContent(view));
      halt.update(view.state === 'PAUSED' ? view.pause : undefined);
      actions.update(view);
      await recipients.refresh();
      return campaignChangesByItself(view.state);
    },
    notFound: () => {
      replaceChildren(heading, 'Campaign not found');
      replaceChildren(header, notice(`No campaign ${campaignId} among this organization's campaigns that this key may read.`, 'info'));
      replaceChildren(actions.root);
      replaceChildren(sections.root);
      replaceChildren(recipients.root);
    },
  });
  const actions = createAudienceCampaignActions(campaignId, () => campaign, messages, poller.load);

  replaceChildren(
    main,
    el('p', {}, el('a', { href: '#/campaigns' }, '← All campaigns')),
    heading,
    header,
    actions.root,
    messages,
    sections.root,
    recipients.root,
  );
  void poller.load();
  heading.focus();
  return { leave: poller.leave };
}
