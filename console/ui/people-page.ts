/**
 * `#/people` (admins): the organization's people with their roles; invite (email and role, with the
 * invitation's result: a temporary password shown once when the local provider gives one), change
 * a role, remove after a confirmation. Refusals show the API's message (LAST_ADMIN, PERSON_EXISTS, …).
 */
import { invitationWords, type InviteAnswer, type PersonRow } from '../model/admin';
import { formatTime } from '../model/format';
import { roleWords } from '../model/roles';
import { PERSON_ROLES, type PersonRole } from '../../shared/people/person-role';
import { describeError, getData, sendData } from './api';
import { announce, dataTable, el, notice, replaceChildren } from './dom';
import type { PageHandle } from './router';

const roleSelect = (id: string, selected: PersonRole, label?: string): HTMLSelectElement =>
  el(
    'select',
    { id, name: id, 'aria-label': label },
    ...PERSON_ROLES.map((role) => el('option', { value: role, selected: role === selected }, roleWords(role))),
  );

export function renderPeople(main: HTMLElement): PageHandle {
  const messages = el('div', { 'aria-live': 'polite' });
  const list = el('div', {}, el('p', {}, 'Loading…'));
  const reload = async () => {
    try {
      const { people } = await getData<{ people: PersonRow[] }>('/people');
      replaceChildren(list, people.length === 0 ? el('p', {}, 'Nobody yet.') : peopleTable(people, messages, reload));
    } catch (error) {
      replaceChildren(list, notice(describeError(error)));
    }
  };
  replaceChildren(main, el('h2', { tabindex: -1 }, 'People'), inviteForm(messages, reload), messages, list);
  void reload();
  return { leave: () => undefined };
}

function inviteForm(messages: HTMLElement, reload: () => Promise<void>): HTMLElement {
  const email = el('input', { id: 'invite-email', name: 'email', type: 'email', autocomplete: 'off', required: true });
  const role = roleSelect('invite-role', 'viewer');
  const submit = el('button', { type: 'submit' }, 'Invite');
  const form = el(
    'form',
    { class: 'card invite', 'aria-labelledby': 'invite-title' },
    el('h3', { id: 'invite-title' }, 'Invite a person'),
    el('div', { class: 'field' }, el('label', { for: 'invite-email' }, 'Email address'), email),
    el('div', { class: 'field' }, el('label', { for: 'invite-role' }, 'Role'), role),
    submit,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit.disabled = true;
    sendData<InviteAnswer>('POST', '/people', { body: { email: email.value.trim(), role: role.value } })
      .then((answer) => {
        email.value = '';
        replaceChildren(messages, invitationResult(answer));
        announce(`Invited ${answer.person.email}`);
        return reload();
      })
      .catch((error: unknown) => replaceChildren(messages, notice(describeError(error))))
      .finally(() => {
        submit.disabled = false;
      });
  });
  return form;
}

/** The invitation's result; the temporary password is on the page until the next action, never stored or logged. */
function invitationResult(answer: InviteAnswer): HTMLElement {
  const { person, invitation } = answer;
  return el(
    'div',
    { class: 'notice notice-info invitation', role: 'status' },
    el('p', {}, `Invited ${person.email} as ${roleWords(person.role)}. ${invitationWords(invitation)}`),
    invitation.temporaryPassword
      ? el('p', {}, 'Temporary password (shown once; give it to them privately): ', el('code', { class: 'temporary-password' }, invitation.temporaryPassword))
      : null,
  );
}

function peopleTable(people: readonly PersonRow[], messages: HTMLElement, reload: () => Promise<void>): HTMLElement {
  return dataTable(
    'People of the organization',
    ['Email', 'Role', 'Joined', 'Remove'],
    people.map((person) => [person.email, roleCell(person, messages, reload), formatTime(person.joinedAt), removeButton(person, messages, reload)]),
    { class: 'people' },
  );
}

function roleCell(person: PersonRow, messages: HTMLElement, reload: () => Promise<void>): HTMLElement {
  const select = roleSelect(`role-${person.personId}`, person.role, `Role of ${person.email}`);
  const change = el('button', { type: 'button' }, 'Change role');
  change.setAttribute('aria-label', `Change role of ${person.email}`);
  change.addEventListener('click', () => {
    change.disabled = true;
    sendData<PersonRow>('PATCH', `/people/${encodeURIComponent(person.personId)}`, { body: { role: select.value } })
      .then((changed) => {
        replaceChildren(messages, notice(`${changed.email} is now ${roleWords(changed.role)}.`, 'info'));
        return reload();
      })
      .catch((error: unknown) => replaceChildren(messages, notice(describeError(error))))
      .finally(() => {
        change.disabled = false;
      });
  });
  return el('span', { class: 'role-change' }, select, change);
}

function removeButton(person: PersonRow, messages: HTMLElement, reload: () => Promise<void>): HTMLButtonElement {
  const remove = el('button', { type: 'button', class: 'danger', 'aria-label': `Remove ${person.email}` }, 'Remove');
  remove.addEventListener('click', () => {
    if (!window.confirm(`Remove ${person.email}? They lose access at once and their sessions end.`)) return;
    remove.disabled = true;
    sendData('DELETE', `/people/${encodeURIComponent(person.personId)}`)
      .then(() => {
        replaceChildren(messages, notice(`${person.email} was removed.`, 'info'));
        return reload();
      })
      .catch((error: unknown) => {
        remove.disabled = false;
        replaceChildren(messages, notice(describeError(error)));
      });
  });
  return remove;
}
