/**
 * A campaign's buttons: pause, resume and cancel, each shown only when the state allows it
 * (campaignControlsOf), follow-ups to the failed and to the unread of the whole campaign, refresh.
 */
import type { CampaignView } from '../model/api-types';
import { campaignControlsOf } from '../model/campaign-state';
import { followUpOriginOfCampaign } from '../model/follow-up';
import { actionGroup, controlButton, followUpButtons, refreshButton } from './action-buttons';
import { who } from './who';

export interface AudienceCampaignActions {
  root: HTMLElement;
  update(view: CampaignView): void;
}

export function createAudienceCampaignActions(
  campaignId: string,
  campaign: () => CampaignView | undefined,
  messages: HTMLElement,
  reload: () => Promise<void>,
): AudienceCampaignActions {
  const path = `/campaigns/${encodeURIComponent(campaignId)}`;
  const pause = controlButton({ label: 'Pause campaign', path: `${path}/pause`, done: 'Campaign paused' }, messages, reload);
  const resume = controlButton({ label: 'Resume campaign', path: `${path}/resume`, done: 'Campaign resumed' }, messages, reload);
  const cancel = controlButton(
    {
      label: 'Cancel campaign',
      path: `${path}/cancel`,
      confirm: 'Cancel this campaign? Members not sent yet will not be sent, and it cannot be resumed.',
      done: 'Campaign cancelled',
      danger: true,
    },
    messages,
    reload,
  );
  const followUps = followUpButtons(
    `${path}/follow-up`,
    () => {
      const view = campaign();
      return view ? followUpOriginOfCampaign(view) : undefined;
    },
    messages,
  );
  const controls = { pause, resume, cancel };
  // The signed-in role's controls only (console/model/roles.ts); the API refuses the others anyway.
  const roleAllows = { pause: who.allows('pauseCampaign'), resume: who.allows('resumeCampaign'), cancel: who.allows('cancelCampaign') };
  for (const button of Object.values(controls)) button.hidden = true;
  for (const button of followUps.buttons) button.hidden = !who.allows('campaignFollowUp');
  return {
    root: actionGroup('Campaign actions', pause, resume, cancel, ...followUps.buttons, refreshButton(messages, reload)),
    update(view) {
      const allowed = campaignControlsOf(view.state);
      for (const [name, button] of Object.entries(controls)) {
        button.hidden = !allowed[name as keyof typeof controls] || !roleAllows[name as keyof typeof controls];
        button.disabled = false;
      }
      followUps.update(view.totals);
    },
  };
}
