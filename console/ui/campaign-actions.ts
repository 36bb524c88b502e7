/** A job's buttons: cancel (after a confirmation), follow-ups (to the failed, the unread, by outcome), refresh. */
import type { BroadcastListItem, JobStatusView } from '../model/api-types';
import { isFinished } from '../model/job-state';
import { tappedPayloadsOf } from '../model/outcomes';
import { actionGroup, controlButton, followUpButtons, refreshButton } from './action-buttons';
import { who } from './who';

export interface CampaignActions {
  root: HTMLElement;
  /** Enables what the job's state allows. */
  update(status: JobStatusView): void;
}

export function createCampaignActions(jobId: string, entry: () => BroadcastListItem | undefined, messages: HTMLElement, reload: () => Promise<void>): CampaignActions {
  const path = `/broadcasts/${encodeURIComponent(jobId)}`;
  const cancel = controlButton(
    { label: 'Cancel campaign', path: `${path}/cancel`, confirm: 'Cancel this campaign? Recipients not sent yet will not be sent.', done: 'Cancel requested', danger: true },
    messages,
    reload,
  );
  let latest: JobStatusView | undefined;
  // The list entry names the job; the latest status adds the payloads tapped (the dialog's button choices).
  const origin = () => {
    const listed = entry();
    const tapped = tappedPayloadsOf(latest?.summary.buttons);
    return listed && tapped.length ? { ...listed, tappedPayloads: tapped } : listed;
  };
  const followUps = followUpButtons(`${path}/follow-up`, origin, messages);
  // The signed-in role's controls only (console/model/roles.ts); the API refuses the others anyway.
  cancel.hidden = !who.allows('cancelJob');
  for (const button of followUps.buttons) button.hidden = !who.allows('followUp');
  return {
    root: actionGroup('Campaign actions', cancel, ...followUps.buttons, refreshButton(messages, reload)),
    update(status) {
      latest = status;
      cancel.disabled = isFinished(status.status);
      followUps.update(status.summary);
    },
  };
}
