/**
 * The builder's last step (docs/CONSOLE.md "New campaign"): the draft (`POST /campaigns`; a changed
 * campaign is a new draft and the previous one is cancelled, so no stale draft is launched), its dry
 * run (`POST /campaigns/{campaignId}/launch?dryRun=true`: sendable, opted out, duplicates, missing
 * values, cost, the plan within Meta's limit), then the launch or schedule behind the confirmation.
 */
import type { CampaignCreated, CampaignDryRunAnswer } from '../model/api-types';
import { confirmationText, dryRunRows, limitPlanLines } from '../model/campaign-draft';
import { sendWindowPlanLines } from '../model/respect-views';
import { describeError, sendEnvelope } from './api';
import { announce, dataTable, el, notice, replaceChildren } from './dom';
import { openLaunchDialog } from './launch-dialog';

export interface CheckForm {
  /** Why the form cannot be checked yet, in words. */
  problem?: string;
  body: Record<string, unknown>;
  templateName: string;
  scheduledAt?: string;
}

interface Draft {
  campaignId: string;
  body: string;
  dryRun?: CampaignDryRunAnswer;
  form?: CheckForm;
}

const draftPath = (campaignId: string, action: string) => `/campaigns/${encodeURIComponent(campaignId)}/${action}`;

function dryRunView(draft: Draft, answer: CampaignDryRunAnswer): Node[] {
  return [
    el('p', {}, `Draft ${draft.campaignId} created. Nothing was sent.`),
    dataTable('Dry run: nothing was sent', ['', 'Members'], dryRunRows(answer), { class: 'dry-run' }),
    el('h4', {}, "Plan within Meta's messaging limit"),
    el('ul', { class: 'limit-plan' }, ...limitPlanLines(answer.messagingLimit).map((line) => el('li', {}, line))),
    // Issue 39: with a send window, the API says how many go now and when the rest go.
    ...(answer.sendWindow
      ? [
          el('h4', {}, 'When they go (send window)'),
          el('ul', { class: 'window-plan' }, ...sendWindowPlanLines(answer.sendWindow).map((line) => el('li', {}, line))),
        ]
      : []),
  ];
}

export function createCheckStep(form: () => CheckForm): { root: HTMLElement; invalidate(): void } {
  const result = el('div', { 'aria-live': 'polite' });
  const check = el('button', { type: 'button', class: 'primary' }, 'Create draft and check (dry run)');
  const launch = el('button', { type: 'button', class: 'primary', hidden: true }, 'Launch…');
  let draft: Draft | undefined;

  const draftFor = async (body: Record<string, unknown>): Promise<Draft> => {
    const text = JSON.stringify(body);
    if (draft?.body === text) return draft;
    if (draft) await sendEnvelope('POST', draftPath(draft.campaignId, 'cancel')).catch(() => undefined);
    const created = await sendEnvelope<CampaignCreated>('POST', '/campaigns', { body });
    draft = { campaignId: created.data.campaignId, body: text };
    return draft;
  };

  const run = async () => {
    const current = form();
    if (current.problem) return void replaceChildren(result, notice(current.problem));
    check.disabled = true;
    launch.hidden = true;
    replaceChildren(result, 'Creating the draft and running the dry run…');
    try {
      const checked = await draftFor(current.body);
      const answer = await sendEnvelope<CampaignDryRunAnswer>('POST', draftPath(checked.campaignId, 'launch'), { query: { dryRun: true } });
      Object.assign(checked, { dryRun: answer.data, form: current });
      replaceChildren(result, ...dryRunView(checked, answer.data));
      launch.textContent = current.scheduledAt ? 'Schedule…' : 'Launch…';
      launch.hidden = false;
      launch.disabled = answer.data.sendable === 0;
      announce('Dry run ready');
    } catch (error) {
      replaceChildren(result, notice(describeError(error)));
    } finally {
      check.disabled = false;
    }
  };

  check.addEventListener('click', () => void run());
  launch.addEventListener('click', () => {
    if (!draft?.dryRun || !draft.form) return;
    openLaunchDialog(draft.campaignId, confirmationText(draft.dryRun, draft.form.templateName, draft.form.scheduledAt), draft.form.scheduledAt !== undefined);
  });
  return { root: el('div', {}, el('div', { class: 'actions' }, check, launch), result), invalidate: () => (launch.hidden = true) };
}
