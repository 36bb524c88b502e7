/**
 * The campaign console's page (docs/CONSOLE.md): an empty shell that loads the bundled script and
 * style sheet from its own `assets/` and tells the script where the broadcast API is. No inline
 * script or style, so the Content-Security-Policy allows only files of this origin.
 */

/** The console's files: the built script and style sheet, and the failure-reason table as JSON. */
export const consoleAssetFiles = ['console.js', 'console.css', 'failure-codes.json', 'sign-in.json'] as const;

/**
 * The page's policy: its own files only, API calls to its own origin (the key never leaves it),
 * no frames, no forms posted anywhere, no plugins. Chart.js sizes its canvas through the CSSOM,
 * which `style-src 'self'` allows; nothing needs `unsafe-inline`.
 */
export const consoleContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The page's policy when people sign in at an identity provider: the same, with the provider's
 * origins (discovery and the token endpoint: sign-in-settings.ts `identityOriginsOf`) added to
 * `connect-src` only. The sign-in itself is a navigation, which the policy does not restrict.
 *
 * @example
 * consoleContentSecurityPolicyFor(['http://127.0.0.1:4010']); // "…connect-src 'self' http://127.0.0.1:4010; …"
 */
export const consoleContentSecurityPolicyFor = (identityOrigins: readonly string[]): string =>
  identityOrigins.length === 0
    ? consoleContentSecurityPolicy
    : consoleContentSecurityPolicy.replace("connect-src 'self'", ["connect-src 'self'", ...identityOrigins].join(' '));

/** Headers of the page: the policy, no referrer (job ids stay on this origin), no framing. */
export const consolePageHeaders = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': consoleContentSecurityPolicy,
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
} as const;

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] as string);

/**
 * Where the broadcast routes are, seen from the console's public path: the console is
 * `<prefix>/console` and the routes `<prefix>/broadcast/public/…` of the same REST API, so the
 * page works at `/prod/api/v2/console/`, behind a custom domain's base path and at the local alias.
 *
 * @example
 * apiBaseOf('/prod/api/v2/console/'); // '/prod/api/v2/broadcast/public'
 */
export const apiBaseOf = (consolePath: string): string => `${consolePath.replace(/\/+$/, '').replace(/\/console$/, '')}/broadcast/public`;

/**
 * The page at `publicPath` (the path the browser asked for, stage included).
 *
 * @example
 * consolePageHtml('/prod/api/v2/console'); // '<!doctype html>…<script src="/prod/api/v2/console/assets/console.js"></script>…'
 */
export function consolePageHtml(publicPath: string): string {
  const base = escapeHtml(`${publicPath.replace(/\/+$/, '')}/assets/`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="console-api-base" content="${escapeHtml(apiBaseOf(publicPath))}">
<meta name="console-assets" content="${base}">
<title>Campaign console</title>
<link rel="stylesheet" href="${base}console.css">
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="top-bar"><h1 class="brand"><a href="#/">Campaign console</a></h1><div id="session"></div></header>
<main id="main" tabindex="-1"><p>Loading…</p></main>
<div id="announcer" class="visually-hidden" role="status" aria-live="polite"></div>
<script src="${base}console.js"></script>
</body>
</html>
`;
}
