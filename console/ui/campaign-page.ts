/**
 * One broadcast job: its header and actions, the sections, the recipient table. While the job is not
 * finished it reads its status every 5 s (the table every 5 s, the per-minute chart every 15 s):
 * a key's status reads share 30 a minute (docs/CONSOLE.md "Refreshing").
 */
import type { BroadcastListItem, JobStatusView } from '../model/api-types';
import { formatCount, formatTime } from '../model/format';
import { isFinished } from '../model/job-state';
import { messagesPerMinute } from '../model/per-minute';
import { campaignHref } from '../model/route';
import { describeError, getData, getText } from './api';
import { createCampaignActions } from './campaign-actions';
import { createSections, jobSectionsInput } from './campaign-sections';
import { el, factList, notice, replaceChildren } from './dom';
import { listEntryOf } from './job-cache';
import { progressCell, statusBadge } from './list-page';
import { createPoller } from './page-poller';
import { reasonTable } from './reasons';
import { createRecipientsTable } from './recipients-table';
import { createHaltSection, respectFacts } from './respect-sections';
import type { PageHandle } from './router';

const REFRESH_MS = 5_000;
const CHART_EVERY = 3;

function headerOf(jobId: string, status: JobStatusView, entry: BroadcastListItem | undefined): Node[] {
  const followUpOf = status.followUpOf ?? entry?.followUpOf;
  return [
    el('p', { class: 'state' }, statusBadge(status), ' ', progressCell(status)),
    factList([
      ['Template', entry?.template ? `${entry.template.name} (${entry.template.language})` : '—'],
      ['Sender', entry?.fromPhoneNumber ?? '—'],
      ['Recipients', formatCount(status.totalRecipients)],
      ['Created', formatTime(entry?.createdAt)],
      ['Scheduled', entry?.scheduledAt ? formatTime(entry.scheduledAt) : '—'],
      ['Job', jobId],
      ...respectFacts(status.summary, status.status === 'PAUSED' ? status.pause : undefined),
    ]),
    ...(followUpOf ? [el('p', {}, 'Follow-up of ', el('a', { href: campaignHref(followUpOf) }, followUpOf))] : []),
  ];
}

export function renderCampaign(main: HTMLElement, jobId: string): PageHandle {
  let ticks = 0;
  let entry: BroadcastListItem | undefined;
  const heading = el('h2', { tabindex: -1 }, 'Campaign');
  const header = el('div', {}, el('p', {}, 'Loading…'));
  const messages = el('div');
  const sections = createSections();
  const halt = createHaltSection();
  sections.root.prepend(halt.root);
  const path = `/broadcasts/${encodeURIComponent(jobId)}`;
  const recipients = createRecipientsTable({ path: `${path}/recipients`, id: jobId });

  const drawChart = () =>
    getText(`${path}/recipients`, { format: 'csv' })
      .then((csv) => sections.updatePerMinute(messagesPerMinute(csv)))
      .catch((error: unknown) => sections.updatePerMinute(undefined, describeError(error)));

  const poller = createPoller({
    intervalMs: REFRESH_MS,
    messages,
    read: async (shown) => {
      entry ??= await listEntryOf(jobId).catch(() => undefined);
      const [status, reasons] = await Promise.all([getData<JobStatusView>(`/status/${encodeURIComponent(jobId)}`), reasonTable()]);
      if (!shown()) return false;
      replaceChildren(heading, entry?.broadcastName ?? jobId);
      replaceChildren(header, ...headerOf(jobId, status, entry));
      sections.update(jobSectionsInput(status), reasons);
      halt.update(status.status === 'PAUSED' ? status.pause : undefined);
      actions.update(status);
      await Promise.all([recipients.refresh(), ticks % CHART_EVERY === 0 ? drawChart() : undefined]);
      ticks += 1;
      return !isFinished(status.status);
    },
    // Another organization's job, an unknown one or one outside the key's reach: said once, no more reads.
    notFound: () => {
      replaceChildren(heading, 'Campaign not found');
      replaceChildren(header, notice(`No campaign ${jobId} among this organization's campaigns that this key may read.`, 'info'));
      replaceChildren(actions.root);
      replaceChildren(sections.root);
      replaceChildren(recipients.root);
    },
  });
  const actions = createCampaignActions(
    jobId,
    () => entry,
    messages,
    () => {
      ticks = 0;
      return poller.load();
    },
  );

  replaceChildren(main, el('p', {}, el('a', { href: '#/' }, '← All broadcasts')), heading, header, actions.root, messages, sections.root, recipients.root);
  void poller.load();
  heading.focus();
  return { leave: poller.leave };
}
