/**
 * The follow-up confirmation: a modal dialog (keyboard: Tab stays inside, Escape closes) with the
 * follow-up's fields, the dry run of exactly that body (`?dryRun=true`), and the send. One
 * Idempotency-Key per opening, so a double click or a retry never makes two jobs.
 */
import type { DryRunAnswer, FollowUpAccepted } from '../model/api-types';
import { formatCount, formatMoney } from '../model/format';
import { TEMPLATE_CATEGORIES, followUpBody, followUpDefaults, type FollowUpForm, type FollowUpKind, type FollowUpOrigin } from '../model/follow-up';
import { ApiError, describeError, post } from './api';
import { dataTable, el, notice, replaceChildren } from './dom';
import { filterFields } from './follow-up-filters';

const titles: Record<FollowUpKind, string> = {
  failed: 'Follow up to the failed',
  unread: 'Follow up to the unread',
  outcome: 'Follow up by reply, click or button',
};
const intros: Record<FollowUpKind, string> = {
  failed: 'A new campaign to the recipients of this one that failed, each with the parameters they had.',
  unread: 'A new campaign to the recipients of this one who have not read it.',
  outcome: 'A new campaign to the recipients this one reached, chosen by what they did after: for example read but did not reply.',
};
const MISSING_ROUTE = 'This service has no follow-up route yet (404 Route not found): follow-ups need a newer version of the service. Nothing was sent.';

export const idempotencyKey = (): string =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');

function field(id: string, label: string, input: HTMLInputElement | HTMLSelectElement): HTMLElement {
  input.id = id;
  input.name = id;
  return el('div', { class: 'field' }, el('label', { for: id }, label), input);
}

function dryRunView(answer: DryRunAnswer): HTMLElement {
  const { totals } = answer;
  const rows = [
    ['Would be sent', formatCount(totals.sendable)],
    ['Opted out (left out)', formatCount(totals.optedOut)],
    ['Duplicates', formatCount(totals.duplicates)],
    ['Invalid', formatCount(totals.invalid)],
  ];
  if (answer.messagingLimit)
    rows.push(['Messaging limit headroom', answer.messagingLimit.headroom === null ? 'unlimited' : formatCount(answer.messagingLimit.headroom)]);
  if (answer.estimatedCost) rows.push(['Estimated cost', formatMoney(answer.estimatedCost.amount, answer.estimatedCost.currency)]);
  return el('div', { class: 'dry-run' }, dataTable('Dry run: nothing was sent', ['', 'Recipients'], rows));
}

function formOf(kind: FollowUpKind, job: FollowUpOrigin | undefined) {
  const defaults = followUpDefaults(kind, job);
  const name = el('input', { type: 'text', required: true, maxlength: 200, value: defaults.broadcastName });
  const template = el('input', { type: 'text', required: true, value: defaults.templateName });
  const language = el('input', { type: 'text', required: true, value: defaults.templateLanguage });
  const category = el('select', {}, ...TEMPLATE_CATEGORIES.map((value) => el('option', { value, selected: value === defaults.templateType }, value)));
  const hours = el('input', { type: 'number', min: 0, step: 1, value: defaults.notReadAfterHours ?? '' });
  const force = el('input', { type: 'checkbox' });
  const fields = [
    field('fu-name', 'Campaign name', name),
    field('fu-template', 'Template', template),
    field('fu-language', 'Language', language),
    field('fu-category', 'Template category', category),
  ];
  if (kind === 'unread') fields.push(field('fu-hours', 'Not read after (hours)', hours));
  const outcome = filterFields(kind, job?.tappedPayloads);
  fields.push(...outcome.fields);
  fields.push(el('div', { class: 'field checkbox' }, force, el('label', { for: 'fu-force' }, 'Send even to 131049 failures younger than 24 hours (force)')));
  force.id = 'fu-force';
  const read = (): FollowUpForm => ({
    broadcastName: name.value.trim(),
    templateName: template.value.trim(),
    templateLanguage: language.value.trim(),
    templateType: category.value,
    ...(kind === 'unread' && hours.value !== '' ? { notReadAfterHours: Number(hours.value) } : {}),
    force: force.checked,
    statuses: outcome.statuses(),
    filters: outcome.filters(),
  });
  return { fields, read };
}

/**
 * Opens the dialog for the follow-up route `path` (`/broadcasts/{jobId}/follow-up` or
 * `/campaigns/{campaignId}/follow-up`: one body, one answer); `started` gets the new job's id once
 * the follow-up was accepted.
 */
export function openFollowUp(kind: FollowUpKind, path: string, job: FollowUpOrigin | undefined, started: (newJobId: string | undefined) => void): void {
  const key = idempotencyKey();
  const { fields, read } = formOf(kind, job);
  const result = el('div', { 'aria-live': 'polite' });
  const check = el('button', { type: 'button' }, 'Check (dry run)');
  const send = el('button', { type: 'button', class: 'primary', disabled: true }, 'Send follow-up');
  const close = el('button', { type: 'button' }, 'Close');
  const dialog = el(
    'dialog',
    { class: 'follow-up', 'aria-labelledby': 'fu-title' },
    el('h2', { id: 'fu-title' }, titles[kind]),
    el('p', {}, intros[kind]),
    el('form', { method: 'dialog' }, ...fields),
    result,
    el('div', { class: 'actions' }, check, send, close),
  );
  const body = () => followUpBody(kind, read(), job?.fromPhoneNumber ?? '');
  const fail = (error: unknown) => replaceChildren(result, notice(error instanceof ApiError && error.routeMissing ? MISSING_ROUTE : describeError(error)));

  const dryRun = async () => {
    send.disabled = true;
    replaceChildren(result, 'Running the dry run…');
    try {
      const answer = await post<DryRunAnswer & { data?: DryRunAnswer }>(path, { query: { dryRun: true }, body: body() });
      const view = answer.body.totals ? answer.body : answer.body.data;
      if (!view?.totals) throw new Error('The service answered without a dry run.');
      replaceChildren(result, dryRunView(view));
      send.disabled = view.totals.sendable === 0;
      send.focus();
    } catch (error) {
      fail(error);
    }
  };
  send.addEventListener('click', () => {
    send.disabled = true;
    post<{ data?: FollowUpAccepted }>(path, { body: body(), headers: { 'Idempotency-Key': key } })
      .then((accepted) => {
        dialog.close();
        started(accepted.jobId ?? accepted.body.data?.jobId);
      })
      .catch(fail);
  });
  check.addEventListener('click', () => void dryRun());
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  document.body.appendChild(dialog);
  dialog.showModal();
  void dryRun();
}
