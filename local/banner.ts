import type { LocalRuntime } from './local-runtime';

/** The short "ready" text of `npm start`, with curl lines that work as printed. */
export function bannerFor(runtime: LocalRuntime, readyMs: number): string {
  const demo = runtime.demo;
  const base = runtime.baseUrl;
  const lines = [
    '',
    `  WhatsApp broadcast platform — local stack ready in ${readyMs} ms`,
    '',
    `  Gateway          ${base}`,
    `    broadcast API  ${base}/prod/api/v2/broadcast/public/...`,
    `    organizations  ${base}/v2/organizations/public/...`,
    `    v1 API         ${base}/v1/...`,
    `    Cloud API wrapper ${base}/staging/api/v2/upstream/...`,
    `  Cloud API sandbox ${runtime.sandboxUrl}   (inspect: ${runtime.sandboxUrl}/_sandbox/messages)`,
    `  Demo credentials .local/demo.json`,
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
