/** The sign-in form: the key is checked with one read of the campaign list, then held in this tab only. */
import { ApiError, checkCredential, describeError } from './api';
import { el, notice, replaceChildren } from './dom';
import { session } from './session';

export function renderSignIn(main: HTMLElement, reason: string | undefined, signedIn: () => void): void {
  const input = el('input', { id: 'api-key', name: 'api-key', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true, 'aria-describedby': 'api-key-help' });
  const status = el('div', { 'aria-live': 'polite' });
  const form = el(
    'form',
    { class: 'card sign-in', 'aria-labelledby': 'sign-in-title' },
    el('h2', { id: 'sign-in-title', tabindex: -1 }, 'Sign in'),
    reason ? notice(reason) : null,
    el('label', { for: 'api-key' }, 'Organization API key'),
    input,
    el('p', { id: 'api-key-help', class: 'help' }, 'Kept in this browser tab only (session storage) and sent to this service as the x-api-key header. Closing the tab or signing out forgets it.'),
    el('button', { type: 'submit' }, 'Sign in'),
    status,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const key = input.value.trim();
    if (!key) return;
    session.signIn(key);
    input.value = '';
    replaceChildren(status, 'Checking the key…');
    checkCredential()
      .then(signedIn)
      .catch((error: unknown) => {
        if (!(error instanceof ApiError && (error.status === 401 || error.status === 403))) session.signOut();
        replaceChildren(status, notice(error instanceof ApiError && error.status === 401 ? 'The API key was refused.' : describeError(error)));
        input.focus();
      });
  });
  replaceChildren(main, form);
  input.focus();
}
