/**
 * `#/settings` (everyone signed in; docs/CONSOLE.md "Contact policy"): the organization's contact
 * policy, the frequency cap every campaign and broadcast keeps (docs/CAMPAIGNS.md "Frequency caps").
 * Everyone reads it (`GET /contact-policy`; 404: off); an admin sets it (`PUT`) or removes it
 * (`DELETE`, after a confirmation). Refusals show the API's message.
 */
import type { ContactPolicyView } from '../model/respect-types';
import { contactPolicyBodyOf, contactPolicyOf, contactPolicyWords } from '../model/respect-views';
import { formatTime } from '../model/format';
import { contactPolicyOperations } from '../model/roles';
import { ApiError, describeError, getData, sendData } from './api';
import { announce, el, factList, notice, replaceChildren } from './dom';
import type { PageHandle } from './router';
import { who } from './who';

const CATEGORIES = [
  ['MARKETING', 'Marketing'],
  ['UTILITY', 'Utility'],
  ['AUTHENTICATION', 'Authentication'],
] as const;

/** The policy, or undefined when the organization has none (`{ policy: null }`, or a 404 with the API's code; the gateway's "Route not found" is an error). */
async function readPolicy(): Promise<ContactPolicyView | undefined> {
  try {
    return contactPolicyOf(await getData<unknown>('/contact-policy'));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && !error.routeMissing) return undefined;
    throw error;
  }
}

function policyFacts(policy: ContactPolicyView | undefined): HTMLElement {
  return el(
    'div',
    {},
    el('p', { class: 'policy-words', 'data-policy': policy ? 'on' : 'off' }, contactPolicyWords(policy)),
    policy
      ? factList([
          ['Set', formatTime(policy.updatedAt)],
          ['By', policy.updatedBy ?? '—'],
        ])
      : null,
  );
}

interface PolicyForm {
  root: HTMLElement;
  fill(policy: ContactPolicyView | undefined): void;
}

function policyForm(messages: HTMLElement, reload: () => Promise<void>): PolicyForm {
  const perPerson = el('input', { id: 'policy-per-person', type: 'number', min: 1, step: 1, inputmode: 'numeric', required: true });
  const perDays = el('input', { id: 'policy-per-days', type: 'number', min: 1, step: 1, inputmode: 'numeric', required: true });
  const boxes = CATEGORIES.map(([value, words]) => ({
    value,
    box: el('input', { id: `policy-category-${value.toLowerCase()}`, type: 'checkbox', checked: value === 'MARKETING' }),
    words,
  }));
  const save = el('button', { type: 'submit', class: 'primary' }, 'Save policy');
  const remove = el('button', { type: 'button', class: 'danger' }, 'Turn the cap off');
  const say = (text: string, kind: 'error' | 'info' = 'error') => replaceChildren(messages, notice(text, kind));
  const root = el(
    'form',
    { class: 'card policy-form', 'aria-labelledby': 'policy-form-title', novalidate: true },
    el('h3', { id: 'policy-form-title' }, 'Change the policy'),
    el('div', { class: 'field' }, el('label', { for: perPerson.id }, 'Messages per person'), perPerson),
    el('div', { class: 'field' }, el('label', { for: perDays.id }, 'In any (days)'), perDays),
    el(
      'fieldset',
      { class: 'respect' },
      el('legend', {}, 'Categories counted'),
      ...boxes.map(({ box, words }) => el('div', { class: 'checkbox' }, box, el('label', { for: box.id }, words))),
    ),
    el('div', { class: 'actions' }, save, remove),
  );
  root.addEventListener('submit', (event) => {
    event.preventDefault();
    const { body, problem } = contactPolicyBodyOf(
      perPerson.value,
      perDays.value,
      boxes.filter(({ box }) => box.checked).map(({ value }) => value),
    );
    if (!body) return say(problem!);
    save.disabled = true;
    sendData('PUT', '/contact-policy', { body })
      .then(() => {
        say('Contact policy saved.', 'info');
        announce('Contact policy saved');
        return reload();
      })
      .catch((error: unknown) => say(describeError(error)))
      .finally(() => (save.disabled = false));
  });
  remove.addEventListener('click', () => {
    if (!window.confirm('Turn the frequency cap off? Campaigns and broadcasts will no longer skip or defer anyone for it.')) return;
    remove.disabled = true;
    sendData('DELETE', '/contact-policy')
      .then(() => {
        say('Contact policy removed: no frequency cap.', 'info');
        announce('Contact policy removed');
        return reload();
      })
      .catch((error: unknown) => say(describeError(error)))
      .finally(() => (remove.disabled = false));
  });
  return {
    root,
    fill(policy) {
      perPerson.value = policy ? String(policy.marketingPerPerson) : '';
      perDays.value = policy ? String(policy.perDays) : '';
      const counted = policy?.categories?.length ? policy.categories : ['MARKETING'];
      for (const { value, box } of boxes) box.checked = counted.includes(value);
      remove.hidden = !policy || !who.mayCall(contactPolicyOperations.remove);
    },
  };
}

export function renderSettings(main: HTMLElement): PageHandle {
  const messages = el('div', { 'aria-live': 'polite' });
  const current = el('div', {}, el('p', {}, 'Loading…'));
  const mayChange = who.mayCall(contactPolicyOperations.set);
  const reload = async () => {
    try {
      const policy = await readPolicy();
      replaceChildren(current, policyFacts(policy));
      form?.fill(policy);
    } catch (error) {
      replaceChildren(current, notice(describeError(error)));
    }
  };
  const form = mayChange ? policyForm(messages, reload) : undefined;
  const heading = el('h2', { tabindex: -1 }, 'Settings');
  replaceChildren(
    main,
    heading,
    el(
      'section',
      { class: 'card', 'aria-labelledby': 'policy-title' },
      el('h3', { id: 'policy-title' }, 'Contact policy'),
      el(
        'p',
        { class: 'help' },
        'A frequency cap across every campaign and broadcast of the organization, per person (their phone and user id counted as one). Over it a recipient is skipped as FREQUENCY_CAPPED, or waits when the campaign defers people over the cap.',
      ),
      current,
      mayChange ? null : el('p', { class: 'help' }, 'Only an admin changes the contact policy.'),
    ),
    form?.root,
    messages,
  );
  void reload();
  heading.focus();
  return { leave: () => undefined };
}
