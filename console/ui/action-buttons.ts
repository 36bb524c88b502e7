/**
 * The buttons a job's and a campaign's page share: a control that posts after a confirmation (cancel,
 * pause, resume), the follow-ups (to the failed, to the unread, by outcome), and refresh.
 */
import { reachesAnyone, type FollowUpCounts, type FollowUpKind, type FollowUpOrigin } from '../model/follow-up';
import { campaignHref } from '../model/route';
import { describeError, post } from './api';
import { announce, el, notice, replaceChildren } from './dom';
import { openFollowUp } from './follow-up-dialog';

export interface ControlButton {
  label: string;
  /** The POST route. */
  path: string;
  /** Asked first; the control runs only when the reader agrees. */
  confirm?: string;
  /** Said once accepted. */
  done: string;
  danger?: boolean;
}

/**
 * A button that posts `path` once confirmed, says so in `messages` and reads the page again. It
 * stays disabled while the post runs; after an accepted one the page's update decides (the state).
 */
export function controlButton(control: ControlButton, messages: HTMLElement, reload: () => Promise<void>): HTMLButtonElement {
  const button = el('button', { type: 'button', class: control.danger ? 'danger' : undefined }, control.label);
  button.addEventListener('click', () => {
    if (control.confirm && !window.confirm(control.confirm)) return;
    button.disabled = true;
    post(control.path)
      .then(() => {
        announce(control.done);
        replaceChildren(messages, notice(`${control.done}.`, 'info'));
        return reload();
      })
      .catch((error: unknown) => {
        button.disabled = false;
        replaceChildren(messages, notice(describeError(error)));
      });
  });
  return button;
}

export interface FollowUpButtons {
  buttons: HTMLButtonElement[];
  /** Enables each follow-up only when someone is in its audience. */
  update(counts: FollowUpCounts): void;
}

/** Follow up to the failed, to the unread, and by reply, click or button through `path`; an accepted follow-up opens the new job. */
export function followUpButtons(path: string, origin: () => FollowUpOrigin | undefined, messages: HTMLElement): FollowUpButtons {
  const failed = el('button', { type: 'button' }, 'Follow up to failed…');
  const unread = el('button', { type: 'button' }, 'Follow up to unread…');
  const outcome = el('button', { type: 'button' }, 'Follow up by reply or click…');
  const open = (kind: FollowUpKind) => () =>
    openFollowUp(kind, path, origin(), (newJobId) => {
      replaceChildren(messages, notice(newJobId ? `Follow-up accepted: ${newJobId}` : 'Follow-up accepted.', 'info'));
      if (newJobId) window.location.hash = campaignHref(newJobId);
    });
  failed.addEventListener('click', open('failed'));
  unread.addEventListener('click', open('unread'));
  outcome.addEventListener('click', open('outcome'));
  return {
    buttons: [failed, unread, outcome],
    update(counts) {
      failed.disabled = !reachesAnyone('failed', counts);
      unread.disabled = !reachesAnyone('unread', counts);
      outcome.disabled = !reachesAnyone('outcome', counts);
    },
  };
}

/** Reads the page again (a finished page's late delivery and read events). */
export function refreshButton(messages: HTMLElement, reload: () => Promise<void>): HTMLButtonElement {
  const refresh = el('button', { type: 'button' }, 'Refresh');
  refresh.addEventListener('click', () => {
    replaceChildren(messages);
    void reload().then(() => announce('Refreshed'));
  });
  return refresh;
}

/** The group the buttons sit in. */
export const actionGroup = (label: string, ...buttons: HTMLButtonElement[]): HTMLElement =>
  el('div', { class: 'actions', role: 'group', 'aria-label': label }, ...buttons);
