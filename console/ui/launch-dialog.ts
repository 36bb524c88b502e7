/**
 * The launch's confirmation (docs/CONSOLE.md "New campaign"): a modal dialog naming the count and the
 * cost, with one Idempotency-Key made per opening, so a double click or a retry launches once.
 * Launching posts `POST /campaigns/{campaignId}/launch` (a campaign with `scheduledAt` ahead is then
 * SCHEDULED) and opens the campaign's page.
 */
import { campaignHref } from '../model/route';
import { describeError, sendEnvelope } from './api';
import { el, notice, replaceChildren } from './dom';
import { idempotencyKey } from './follow-up-dialog';

export function openLaunchDialog(campaignId: string, question: string, scheduled: boolean): void {
  const key = idempotencyKey();
  const result = el('div', { 'aria-live': 'polite' });
  const confirm = el('button', { type: 'button', class: 'primary' }, scheduled ? 'Schedule' : 'Launch');
  const close = el('button', { type: 'button' }, 'Not now');
  const dialog = el(
    'dialog',
    { class: 'follow-up', 'aria-labelledby': 'launch-title', 'aria-describedby': 'launch-question' },
    el('h2', { id: 'launch-title' }, scheduled ? 'Schedule the campaign' : 'Launch the campaign'),
    el('p', { id: 'launch-question' }, question),
    result,
    el('div', { class: 'actions' }, confirm, close),
  );
  confirm.addEventListener('click', () => {
    confirm.disabled = true;
    replaceChildren(result, scheduled ? 'Scheduling…' : 'Launching…');
    sendEnvelope<{ campaignId: string; state: string }>('POST', `/campaigns/${encodeURIComponent(campaignId)}/launch`, { headers: { 'Idempotency-Key': key } })
      .then(() => {
        dialog.close();
        window.location.hash = campaignHref(campaignId);
      })
      .catch((error: unknown) => {
        confirm.disabled = false;
        replaceChildren(result, notice(describeError(error)));
      });
  });
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  document.body.appendChild(dialog);
  dialog.showModal();
  close.focus();
}
