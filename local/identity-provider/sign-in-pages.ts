/**
 * The local identity provider's HTML pages: sign-in, sign-out, signed-out and error. Plain
 * server-rendered forms: labelled fields, a heading per page, the error announced (role=alert) and
 * tied to the fields, styles from one small CSS file, no inline script or style (the CSP of
 * identity-http.ts allows neither). Every value is escaped.
 */

/** Where the pages' files are served (identity-http.ts). */
export const assetPaths = { css: '/assets/sign-in.css', signOutScript: '/assets/sign-out.js' } as const;

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);

function page(title: string, body: string, scripts: readonly string[] = []): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)} · local identity provider</title>`,
    `<link rel="stylesheet" href="${assetPaths.css}">`,
    ...scripts.map((src) => `<script src="${src}" defer></script>`),
    '</head>',
    '<body>',
    `<main>${body}</main>`,
    '</body>',
    '</html>',
  ].join('\n');
}

/**
 * The sign-in form of an interaction; after a refused attempt, one message that does not say
 * whether the email or the password was wrong, and the email typed kept.
 *
 * @example
 * signInPage({ action: '/interaction/abc/login', failed: true, email: 'ana@example.com' });
 */
export function signInPage(options: { action: string; failed: boolean; email?: string }): string {
  const describedBy = options.failed ? ' aria-describedby="sign-in-error" aria-invalid="true"' : '';
  // The email kept (a retry, or the console's login_hint): the cursor goes where the typing is left.
  const [emailFocus, passwordFocus] = options.email ? ['', ' autofocus'] : [' autofocus', ''];
  const error = options.failed
    ? '<p class="error" id="sign-in-error" role="alert">That email and password do not match an account. Check both and try again.</p>'
    : '';
  return page(
    'Sign in',
    [
      '<h1>Sign in</h1>',
      '<p class="lead">to the campaign console</p>',
      error,
      `<form method="post" action="${escapeHtml(options.action)}">`,
      '<div class="field"><label for="email">Email</label>',
      `<input id="email" name="email" type="email" autocomplete="username" required${emailFocus} value="${escapeHtml(options.email ?? '')}"${describedBy}></div>`,
      '<div class="field"><label for="password">Password</label>',
      `<input id="password" name="password" type="password" autocomplete="current-password" required${passwordFocus}${describedBy}></div>`,
      '<button class="primary" type="submit">Sign in</button>',
      '</form>',
      '<p class="note">Local development: the demo people and their passwords are in <code>.local/demo.json</code> (<code>people</code>).</p>',
    ].join('\n'),
  );
}

/**
 * The sign-out confirmation around oidc-provider's form (its hidden `xsrf` field). `confirmed`: the
 * console asked with its own ID token, so a small script submits it at once; the button does the
 * same without JavaScript.
 *
 * @example
 * signOutPage({ providerForm: '<form id="op.logoutForm" …>…</form>', confirmed: true, cancelUrl: undefined });
 */
export function signOutPage(options: { providerForm: string; confirmed: boolean; cancelUrl?: string }): string {
  const form = options.providerForm
    .replace('<form ', `<form data-confirmed="${options.confirmed ? 'yes' : 'no'}" `)
    .replace(
      '</form>',
      '<input type="hidden" name="logout" value="yes"><div class="actions"><button class="primary" type="submit">Sign out</button>' +
        (options.cancelUrl ? `<a href="${escapeHtml(options.cancelUrl)}">Stay signed in</a>` : '') +
        '</div></form>',
    );
  return page(
    'Sign out',
    ['<h1>Sign out</h1>', '<p>Sign out of the campaign console on this browser?</p>', form].join('\n'),
    options.confirmed ? [assetPaths.signOutScript] : [],
  );
}

/** After a sign-out that named no page to return to. */
export function signedOutPage(): string {
  return page('Signed out', '<h1>You are signed out</h1>\n<p>You can close this page.</p>');
}

/**
 * An error of the provider (a bad request from a relying party, an expired sign-in page), as its
 * OAuth error and description; nothing internal.
 *
 * @example
 * errorPage({ error: 'invalid_request', error_description: 'unrecognized route or not allowed method' });
 */
export function errorPage(out: { error?: string; error_description?: string }): string {
  return page(
    'Sign-in problem',
    [
      '<h1>Sign-in problem</h1>',
      `<p role="alert">${escapeHtml(out.error_description ?? 'The request could not be completed.')}</p>`,
      out.error ? `<p class="note">Error: <code>${escapeHtml(out.error)}</code></p>` : '',
      '<p>Go back to the campaign console and sign in again.</p>',
    ].join('\n'),
  );
}
