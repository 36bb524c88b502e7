/**
 * `#/api-keys` (admins): the organization's broadcast API keys (never a secret), create one (for
 * the whole organization or one sender; its secret shown once with a copy button and a warning),
 * revoke after a confirmation. Refusals show the API's message. docs/CONSOLE.md "API keys".
 */
import { activeFirst, apiKeyStateOf, originWords, revokeQuestion, scopeWords, type ApiKeyRow, type CreatedApiKey } from '../model/api-keys';
import type { PhoneNumberEntry } from '../model/api-types';
import { formatTime } from '../model/format';
import { describeError, getData, sendData } from './api';
import { announce, dataTable, el, notice, replaceChildren } from './dom';
import type { PageHandle } from './router';
import { readSenders } from './templates-page';
import { who } from './who';

export function renderApiKeys(main: HTMLElement): PageHandle {
  const messages = el('div', { 'aria-live': 'polite' });
  const list = el('div', {}, el('p', {}, 'Loading…'));
  const form = el('div');
  const reload = async () => {
    try {
      const { keys } = await getData<{ keys: ApiKeyRow[] }>('/api-keys');
      replaceChildren(list, keys.length === 0 ? el('p', {}, 'No API keys yet.') : keysTable(keys, messages, reload));
    } catch (error) {
      replaceChildren(list, notice(describeError(error)));
    }
  };
  replaceChildren(main, el('h2', { tabindex: -1 }, 'API keys'), form, messages, list);
  // The senders are only a choice: without them a key of the whole organization can still be made.
  void readSenders()
    .catch(() => [] as PhoneNumberEntry[])
    .then((senders) => replaceChildren(form, createForm(senders, messages, reload)));
  void reload();
  return { leave: () => undefined };
}

function createForm(senders: readonly PhoneNumberEntry[], messages: HTMLElement, reload: () => Promise<void>): HTMLElement {
  const scope = el(
    'select',
    { id: 'key-scope', name: 'key-scope' },
    el('option', { value: '' }, 'The whole organization'),
    ...senders.map((sender) => el('option', { value: sender.phone_number }, `Only sender +${sender.phone_number}`)),
  );
  const submit = el('button', { type: 'submit' }, 'Create key');
  const form = el(
    'form',
    { class: 'card invite api-key-form', 'aria-labelledby': 'key-title' },
    el('h3', { id: 'key-title' }, 'Create an API key'),
    el('p', {}, 'For a back end that sends with the broadcast API (x-api-key). People sign in as themselves instead.'),
    el('div', { class: 'field' }, el('label', { for: 'key-scope' }, 'May use'), scope),
    submit,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit.disabled = true;
    sendData<CreatedApiKey>('POST', '/api-keys', { body: scope.value ? { phoneNumber: scope.value } : {} })
      .then((created) => {
        replaceChildren(messages, createdKey(created));
        announce(`API key ${created.credentialId} created; copy it now`);
        return reload();
      })
      .catch((error: unknown) => replaceChildren(messages, notice(describeError(error))))
      .finally(() => {
        submit.disabled = false;
      });
  });
  return form;
}

/** The new secret, on the page until the next action: never stored, logged or put in a URL. */
function createdKey(created: CreatedApiKey): HTMLElement {
  const secret = el('input', {
    id: 'new-api-key',
    class: 'new-api-key',
    type: 'text',
    readonly: true,
    value: created.apiKey,
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const copied = el('span', { role: 'status' });
  const copy = el('button', { type: 'button' }, 'Copy');
  copy.addEventListener('click', () => {
    secret.select();
    navigator.clipboard
      .writeText(created.apiKey)
      .then(() => replaceChildren(copied, 'Copied.'))
      .catch(() => replaceChildren(copied, 'Copy failed: the key is selected, copy it with the keyboard.'));
  });
  return el(
    'div',
    { class: 'notice notice-info created-key', role: 'status' },
    el('p', {}, `Created ${created.credentialId} (${scopeWords(created)}).`),
    el('p', { class: 'warning' }, 'Copy the key now: it is shown this once and cannot be read again. Keep it in a secret store, never in code or a chat.'),
    el('div', { class: 'field' }, el('label', { for: 'new-api-key' }, 'API key'), secret),
    el('div', { class: 'copy-row' }, copy, copied),
  );
}

function keysTable(keys: readonly ApiKeyRow[], messages: HTMLElement, reload: () => Promise<void>): HTMLElement {
  const now = new Date();
  return dataTable(
    'API keys of the organization',
    ['Key', 'May use', 'Made', 'Created', 'State', 'Revoke'],
    activeFirst(keys, now).map((key) => {
      const state = apiKeyStateOf(key, now);
      const when = state === 'revoked' ? ` ${formatTime(key.revokedAt)}` : state === 'expired' ? ` ${formatTime(key.expiresAt)}` : '';
      return [
        el('code', {}, key.credentialId),
        scopeWords(key),
        originWords(key.origin),
        formatTime(key.createdAt),
        el('span', { class: `badge badge-key-${state}` }, `${state}${when}`),
        state === 'revoked' ? '—' : revokeButton(key, messages, reload),
      ];
    }),
    { class: 'api-keys' },
  );
}

function revokeButton(key: ApiKeyRow, messages: HTMLElement, reload: () => Promise<void>): HTMLButtonElement {
  const revoke = el('button', { type: 'button', class: 'danger', 'aria-label': `Revoke ${key.credentialId}` }, 'Revoke');
  revoke.addEventListener('click', () => {
    if (!window.confirm(revokeQuestion(key, who.me()))) return;
    revoke.disabled = true;
    sendData('DELETE', `/api-keys/${encodeURIComponent(key.credentialId)}`)
      .then(() => {
        replaceChildren(messages, notice(`${key.credentialId} was revoked.`, 'info'));
        return reload();
      })
      .catch((error: unknown) => {
        revoke.disabled = false;
        replaceChildren(messages, notice(describeError(error)));
      });
  });
  return revoke;
}
