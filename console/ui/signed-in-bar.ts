/** The header's right side once signed in: who and their role, the settings (everyone reads them), the admin screens' links for admins, sign-out. */
import { signedInAs, showsAdminScreens, type Me } from '../model/roles';
import { el } from './dom';

export function signedInBar(me: Me | undefined, signOut: () => void): HTMLElement {
  return el(
    'div',
    { class: 'signed-in' },
    me ? el('span', { class: 'who', 'data-role': me.role }, signedInAs(me)) : null,
    el('a', { href: '#/settings', class: 'settings-link' }, 'Settings'),
    showsAdminScreens(me)
      ? el(
          'nav',
          { class: 'admin-links', 'aria-label': 'Administration' },
          el('a', { href: '#/people' }, 'People'),
          el('a', { href: '#/api-keys' }, 'API keys'),
          el('a', { href: '#/audit-log' }, 'Audit log'),
        )
      : null,
    el('button', { type: 'button', class: 'sign-out', onclick: signOut }, 'Sign out'),
  );
}
