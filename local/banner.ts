import { join, relative } from 'node:path';
import type { LocalRuntime } from './local-runtime';
import { routes } from '../runtime-contract/all-routes';
import { surfaces } from '../runtime-contract/route-manifest';

const servedSurfaces = Object.entries(surfaces).filter(([name]) => routes.some((route) => route.surface === name));

/** The short "ready" text of `npm start`, with curl lines that work as printed. */
export function bannerFor(runtime: LocalRuntime, readyMs: number): string {
  const demo = runtime.demo;
  const base = runtime.baseUrl;
  const lines = [
    '',
    `  WhatsApp broadcast platform — local stack ready in ${readyMs} ms`,
    '',
    `  Gateway          ${base}`,
    ...servedSurfaces.map(([, surface]) => `    ${surface.description.padEnd(28)} ${base}/${surface.stage}${surface.basePath}/...`),
    `  Campaign console ${base}/console/   (sign in as a demo person below, or with the demo API key)`,
    `  Sign-in (OIDC)   ${runtime.identity.issuer}   (local OpenID Connect provider; discovery: ${runtime.identity.issuer}/.well-known/openid-configuration)`,
    ...(demo?.people ?? []).map((person) => `    ${person.role.padEnd(17)} ${person.email.padEnd(24)} password ${person.password}`),
    `  Cloud API sandbox ${runtime.sandboxUrl}   (inspect: ${runtime.sandboxUrl}/_sandbox/messages?limit=20)`,
    ...(runtime.sandbox?.webhooks.settings().active
      ? [`  Meta webhooks    ${runtime.webhookUrl}   (sandbox posts statuses here; settings: ${runtime.sandboxUrl}/_sandbox/webhooks)`]
      : [`  Meta webhooks    ${runtime.webhookUrl}`]),
    `  Demo credentials ${relative(process.cwd(), join(runtime.dataDirectory, 'demo.json'))}`,
    '',
    '  Try:',
    `    curl -s ${base}/prod/api/v2/broadcast/public/health`,
  ];
  if (demo) {
    lines.push(
      `    curl -s -H 'x-api-key: ${demo.apiKey}' ${base}/prod/api/v2/broadcast/public/phone-numbers`,
      `    curl -s -H 'x-api-key: ${demo.apiKey}' '${base}/prod/api/v2/broadcast/public/templates?phone_number=${demo.phoneNumbers[0]}'`,
    );
  }
  lines.push('', '  Ctrl-C stops everything.', '');
  return lines.join('\n');
}
