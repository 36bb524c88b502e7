/** The campaign's buttons: cancel (after a confirmation), follow-up to the failed and to the unread, refresh. */
import type { BroadcastListItem, JobStatusView } from '../model/api-types';
import { hasAudience, type FollowUpKind } from '../model/follow-up';
import { isFinished } from '../model/job-state';
import { describeError, post } from './api';
import { announce, el, notice, replaceChildren } from './dom';
import { openFollowUp } from './follow-up-dialog';

export interface CampaignActions {
  root: HTMLElement;
  /** Enables what the job's state allows. */
  update(status: JobStatusView): void;
}

export function createCampaignActions(jobId: string, entry: () => BroadcastListItem | undefined, messages: HTMLElement, reload: () => Promise<void>): CampaignActions {
  const cancel = el('button', { type: 'button', class: 'danger' }, 'Cancel campaign');
  const failed = el('button', { type: 'button' }, 'Follow up to failed…');
  const unread = el('button', { type: 'button' }, 'Follow up to unread…');
  const refresh = el('button', { type: 'button' }, 'Refresh');

  cancel.addEventListener('click', () => {
    if (!window.confirm('Cancel this campaign? Recipients not sent yet will not be sent.')) return;
    post(`/broadcasts/${encodeURIComponent(jobId)}/cancel`)
      .then(() => {
        announce('Campaign cancelled');
        replaceChildren(messages, notice('Cancel requested.', 'info'));
        return reload();
      })
      .catch((error: unknown) => replaceChildren(messages, notice(describeError(error))));
  });
  const followUp = (kind: FollowUpKind) => () =>
    openFollowUp(kind, jobId, entry(), (newJobId) => {
      replaceChildren(messages, notice(newJobId ? `Follow-up accepted: ${newJobId}` : 'Follow-up accepted.', 'info'));
      if (newJobId) window.location.hash = `#/campaigns/${encodeURIComponent(newJobId)}`;
    });
  failed.addEventListener('click', followUp('failed'));
  unread.addEventListener('click', followUp('unread'));
  refresh.addEventListener('click', () => {
    replaceChildren(messages);
    void reload().then(() => announce('Refreshed'));
  });

  return {
    root: el('div', { class: 'actions', role: 'group', 'aria-label': 'Campaign actions' }, cancel, failed, unread, refresh),
    update(status) {
      cancel.disabled = isFinished(status.status);
      failed.disabled = !hasAudience('failed', status);
      unread.disabled = !hasAudience('unread', status);
    },
  };
}
