/**
 * The sign-in screen: "Sign in" as a person at the organization's identity provider first (when
 * the service has one: ui/oidc.ts), "Use an API key" second, for developers: the key is checked
 * with one read of the campaign list, then held in this tab only.
 */
import { ApiError, checkCredential, describeError } from './api';
import { el, notice, replaceChildren } from './dom';
import { session } from './session';

export interface SignInChoices {
  /** Starts the person's sign-in; absent when no identity provider is configured. */
  person?: () => Promise<void>;
  keySignedIn: () => void;
}

export function renderSignIn(main: HTMLElement, reason: string | undefined, choices: SignInChoices): void {
  if (!choices.person) {
    renderKeyForm(main, reason, choices.keySignedIn);
    return;
  }
  const startPerson = choices.person;
  const status = el('div', { 'aria-live': 'polite' });
  const signIn = el('button', { type: 'button', class: 'primary' }, 'Sign in');
  signIn.addEventListener('click', () => {
    signIn.disabled = true;
    replaceChildren(status, 'Opening the sign-in page…');
    startPerson().catch((error: unknown) => {
      signIn.disabled = false;
      replaceChildren(status, notice(describeError(error)));
    });
  });
  const useKey = el('button', { type: 'button', class: 'secondary' }, 'Use an API key');
  useKey.addEventListener('click', () => renderKeyForm(main, undefined, choices.keySignedIn, () => renderSignIn(main, undefined, choices)));
  replaceChildren(
    main,
    el(
      'section',
      { class: 'card sign-in', 'aria-labelledby': 'sign-in-title' },
      el('h2', { id: 'sign-in-title', tabindex: -1 }, 'Sign in'),
      reason ? notice(reason, 'info') : null,
      el('p', {}, 'Sign in with your organization account: your email and password at the sign-in page.'),
      signIn,
      el('p', { class: 'help' }, 'Developers with the organization’s API key may use it instead.'),
      useKey,
      status,
    ),
  );
  signIn.focus();
}

function renderKeyForm(main: HTMLElement, reason: string | undefined, signedIn: () => void, back?: () => void): void {
  const input = el('input', {
    id: 'api-key',
    name: 'api-key',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
    'aria-describedby': 'api-key-help',
  });
  const status = el('div', { 'aria-live': 'polite' });
  const form = el(
    'form',
    { class: 'card sign-in', 'aria-labelledby': 'sign-in-title' },
    el('h2', { id: 'sign-in-title', tabindex: -1 }, back ? 'Sign in with an API key' : 'Sign in'),
    reason ? notice(reason) : null,
    el('label', { for: 'api-key' }, 'Organization API key'),
    input,
    el(
      'p',
      { id: 'api-key-help', class: 'help' },
      'Kept in this browser tab only (session storage) and sent to this service as the x-api-key header. Closing the tab or signing out forgets it.',
    ),
    el('button', { type: 'submit' }, 'Sign in'),
    back ? el('button', { type: 'button', class: 'secondary', onclick: back }, 'Back') : null,
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
