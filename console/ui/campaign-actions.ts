/** A job's buttons: pause and resume (as the state allows), cancel (after a confirmation), follow-ups (to the failed, the unread, by outcome), refresh. */
import type { BroadcastListItem, JobStatusView } from '../model/api-types';
import { isFinished } from '../model/job-state';
import { tappedPayloadsOf } from '../model/outcomes';
import { jobControlsOf } from '../model/respect-views';
import { actionGroup, controlButton, followUpButtons, refreshButton } from './action-buttons';
import { who } from './who';

export interface CampaignActions {
  root: HTMLElement;
  /** Enables what the job's state allows. */
  update(status: JobStatusView): void;
}

export function createCampaignActions(
  jobId: string,
  entry: () => BroadcastListItem | undefined,
  messages: HTMLElement,
  reload: () => Promise<void>,
): CampaignActions {
  const path = `/broadcasts/${encodeURIComponent(jobId)}`;
  const cancel = controlButton(
    {
      label: 'Cancel campaign',
      path: `${path}/cancel`,
      confirm: 'Cancel this campaign? Recipients not sent yet will not be sent.',
      done: 'Cancel requested',
      danger: true,
    },
    messages,
    reload,
  );
  // Issue 39 item 3: a person pauses and resumes a broadcast job (docs/BROADCAST.md "Pausing a job").
  // Labelled as the page's cancel is: the console calls a job a campaign on its page.
  const pause = controlButton({ label: 'Pause campaign', path: `${path}/pause`, done: 'Paused' }, messages, reload);
  const resume = controlButton({ label: 'Resume campaign', path: `${path}/resume`, done: 'Resumed' }, messages, reload);
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
  const roleAllows = { pause: who.allows('pauseJob'), resume: who.allows('resumeJob') };
  pause.hidden = true;
  resume.hidden = true;
  for (const button of followUps.buttons) button.hidden = !who.allows('followUp');
  return {
    root: actionGroup('Campaign actions', pause, resume, cancel, ...followUps.buttons, refreshButton(messages, reload)),
    update(status) {
      latest = status;
      cancel.disabled = isFinished(status.status);
      const allowed = jobControlsOf(status.status, status.pause);
      pause.hidden = !allowed.pause || !roleAllows.pause;
      resume.hidden = !allowed.resume || !roleAllows.resume;
      pause.disabled = false;
      resume.disabled = false;
      followUps.update(status.summary);
    },
  };
}
