/**
 * One campaign: its header and actions, the sections, the recipient table. While the job is not
 * finished it reads its status every 5 s (the table every 5 s, the per-minute chart every 15 s):
 * a key's status reads share 30 a minute (docs/CONSOLE.md "Refreshing").
 */
import type { BroadcastListItem, JobStatusView } from '../model/api-types';
import { formatCount, formatTime } from '../model/format';
import { isFinished } from '../model/job-state';
import { messagesPerMinute } from '../model/per-minute';
import { campaignReadOutcome } from '../model/access';
import { ApiError, describeError, getData, getText } from './api';
import { createCampaignActions } from './campaign-actions';
import { createSections } from './campaign-sections';
import { el, notice, replaceChildren } from './dom';
import { listEntryOf } from './job-cache';
import { progressCell, statusBadge } from './list-page';
import { reasonTable } from './reasons';
import { createRecipientsTable } from './recipients-table';
import type { PageHandle } from './router';
import { session } from './session';

const REFRESH_MS = 5_000;
const CHART_EVERY = 3;

function headerOf(jobId: string, status: JobStatusView, entry: BroadcastListItem | undefined): Node[] {
  const facts = [
    ['Template', entry?.template ? `${entry.template.name} (${entry.template.language})` : '—'],
    ['Sender', entry?.fromPhoneNumber ?? '—'],
    ['Recipients', formatCount(status.totalRecipients)],
    ['Created', formatTime(entry?.createdAt)],
    ['Scheduled', entry?.scheduledAt ? formatTime(entry.scheduledAt) : '—'],
    ['Job', jobId],
  ];
  const followUpOf = status.followUpOf ?? entry?.followUpOf;
  return [
    el('p', { class: 'state' }, statusBadge(status), ' ', progressCell(status)),
    el('dl', { class: 'facts' }, ...facts.flatMap(([term, value]) => [el('dt', {}, term!), el('dd', {}, value!)])),
    followUpOf ? el('p', {}, 'Follow-up of ', el('a', { href: `#/campaigns/${encodeURIComponent(followUpOf)}` }, followUpOf)) : null,
  ].filter((node): node is HTMLDListElement | HTMLParagraphElement => node !== null);
}

export function renderCampaign(main: HTMLElement, jobId: string): PageHandle {
  let timer: number | undefined;
  let ticks = 0;
  let left = false;
  let entry: BroadcastListItem | undefined;
  const heading = el('h2', { tabindex: -1 }, 'Campaign');
  const header = el('div', {}, el('p', {}, 'Loading…'));
  const messages = el('div');
  const sections = createSections();
  const recipients = createRecipientsTable(jobId);

  const drawChart = () =>
    getText(`/broadcasts/${encodeURIComponent(jobId)}/recipients`, { format: 'csv' })
      .then((csv) => sections.updatePerMinute(messagesPerMinute(csv)))
      .catch((error: unknown) => sections.updatePerMinute(undefined, describeError(error)));

  const load = async (): Promise<void> => {
    window.clearTimeout(timer);
    try {
      entry ??= await listEntryOf(jobId).catch(() => undefined);
      const [status, reasons] = await Promise.all([getData<JobStatusView>(`/status/${encodeURIComponent(jobId)}`), reasonTable()]);
      if (left) return;
      replaceChildren(heading, entry?.broadcastName ?? jobId);
      replaceChildren(header, ...headerOf(jobId, status, entry));
      sections.update(status, reasons);
      actions.update(status);
      await Promise.all([recipients.refresh(), ticks % CHART_EVERY === 0 ? drawChart() : undefined]);
      ticks += 1;
      if (!isFinished(status.status) && !left) timer = window.setTimeout(() => void load(), REFRESH_MS);
    } catch (error) {
      const outcome = error instanceof ApiError ? campaignReadOutcome(error, session.key() !== null) : 'error';
      // Signed out: the sign-in form has replaced this page.
      if (outcome === 'signed-out' || left) return;
      if (outcome === 'not-found') {
        showNotFound();
        return;
      }
      replaceChildren(messages, notice(describeError(error)));
      // A passing fault (a 429, a network blip) is tried again later; the page never stops by itself.
      if (!left) timer = window.setTimeout(() => void load(), REFRESH_MS * 2);
    }
  };
  // Another organization's job, an unknown one or one outside the key's reach: said once, no more reads.
  const showNotFound = () => {
    replaceChildren(heading, 'Campaign not found');
    replaceChildren(header, notice(`No campaign ${jobId} among this organization's campaigns that this key may read.`, 'info'));
    replaceChildren(actions.root);
    replaceChildren(sections.root);
    replaceChildren(recipients.root);
  };
  const actions = createCampaignActions(jobId, () => entry, messages, () => {
    ticks = 0;
    return load();
  });

  replaceChildren(main, el('p', {}, el('a', { href: '#/' }, '← All campaigns')), heading, header, actions.root, messages, sections.root, recipients.root);
  void load();
  heading.focus();
  return {
    leave: () => {
      left = true;
      window.clearTimeout(timer);
    },
  };
}
