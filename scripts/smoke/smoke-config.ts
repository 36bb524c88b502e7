/**
 * What the URL-driven smoke suite (`npm run smoke`) needs, from command-line options, environment
 * variables (`SMOKE_*`) and a credentials file in the shape of `.local/demo.json` (written by
 * `npm start`), in that order of precedence. docs/TESTING.md "Smoke against a deployed URL".
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { surfaces, type SurfaceName } from '../../runtime-contract/route-manifest';
import type { DemoTemplate } from '../../local/demo-seed';

export interface SmokeTemplate {
  name: string;
  language: string;
  category: string;
  /** One value per numbered placeholder of the template's body. */
  parameters: string[];
}

export interface SmokeConfig {
  /** Per surface: the stage's URL with the surface's basePath, no trailing slash (the stack outputs `<Surface>ApiUrl`). */
  urls: Record<SurfaceName, string>;
  apiKey: string;
  orgToken: string;
  accessToken: string;
  v1ApiKey: string;
  fromPhoneNumber: string;
  phoneNumberId: string;
  wabaId: string;
  template: SmokeTemplate;
  /** An employee of the organization; the remove-employee-bulk step removes it. */
  employeeEmail: string;
  /** When given, the Meta handshake is checked with it; otherwise only its refusals are. */
  webhookVerifyToken?: string;
  /** When given, a status event signed with it must be queued (200). */
  metaAppSecret?: string;
  recipientCount: number;
  /** Calling code of the synthetic recipients; the organization needs pricing for it. */
  countryCode: string;
  pollIntervalMs: number;
  broadcastTimeoutMs: number;
  /** Makes idempotency keys, broadcast names and contacts of one run unique. */
  runId: string;
}

/** Option name → environment variable; every option is also `SMOKE_<NAME>` (kebab to upper snake). */
export const smokeOptions = {
  'base-url': 'one gateway serving every stage (the local runtime): <base>/<stage><basePath>',
  'broadcast-url': 'broadcast surface URL (stack output BroadcastApiUrl, e.g. https://<id>.execute-api.<region>.amazonaws.com/prod/api/v2)',
  'organization-url': 'organization surface URL (OrganizationApiUrl)',
  'v1-url': 'v1 surface URL (V1ApiUrl)',
  'upstream-url': 'upstream surface URL (UpstreamApiUrl)',
  'webhooks-url': 'Meta webhook surface URL (WebhooksApiUrl)',
  'docs-url': 'API reference surface URL (DocsApiUrl)',
  'demo-file': 'credentials file in the shape of .local/demo.json (default .local/demo.json when it exists)',
  'api-key': 'broadcast API key (x-api-key)',
  'org-token': 'organization token (remove-employee-bulk)',
  'access-token': '/upstream access token',
  'v1-api-key': 'v1 API key (enterprise plan or API add-on)',
  'from-phone-number': 'sender number of the organization',
  'phone-number-id': 'Meta phone number id of a sender (/upstream)',
  'waba-id': 'WhatsApp business account id (/upstream)',
  'template-name': 'APPROVED template to broadcast',
  'template-language': 'its language (e.g. en_US)',
  'template-category': 'its category (UTILITY, MARKETING, AUTHENTICATION)',
  'template-params': 'comma-separated values, one per placeholder',
  'employee-email': 'employee to remove (it is removed: use a throwaway one)',
  'verify-token': 'Meta webhook verify token (checks the handshake)',
  'app-secret': 'Meta app secret (signs a status event the webhook endpoint must queue: 200)',
  stack: "a deployment's stack name prefix (e.g. WhatsAppPlatform): the surface URLs come from its outputs",
  region: 'AWS region of --stack (default AWS_REGION)',
  recipients: 'recipients of the broadcast (default 1001: two chunks, the asynchronous path)',
  'country-code': 'calling code of the synthetic recipients (default 91)',
  'poll-interval-ms': 'status poll interval (default 2500: under the status limit of 30 a minute)',
  'timeout-ms': 'how long the broadcast may take to complete (default 300000)',
} as const;

export type SmokeOptionName = keyof typeof smokeOptions;

export class SmokeConfigError extends Error {}

const environmentName = (option: string) => `SMOKE_${option.toUpperCase().replace(/-/g, '_')}`;

/** A file in the shape of `.local/demo.json` (only the fields the smoke reads). */
interface DemoFile {
  baseUrl?: string;
  apiKey?: string;
  orgToken?: string;
  accessToken?: string;
  v1ApiKey?: string;
  webhookVerifyToken?: string;
  metaAppSecret?: string;
  wabaId?: string;
  phoneNumbers?: string[];
  phoneNumberIds?: string[];
  templates?: DemoTemplate[];
  employees?: string[];
}

/** The options as given: argv first, then `SMOKE_*` variables. */
export function readSmokeOptions(argv: string[], environment: NodeJS.ProcessEnv): Partial<Record<SmokeOptionName, string>> {
  const { values } = parseArgs({
    args: argv,
    options: Object.fromEntries(Object.keys(smokeOptions).map((name) => [name, { type: 'string' as const }])),
    strict: true,
    allowPositionals: false,
  });
  const given: Partial<Record<SmokeOptionName, string>> = {};
  for (const name of Object.keys(smokeOptions) as SmokeOptionName[]) {
    const value = (values as Record<string, string | undefined>)[name] ?? environment[environmentName(name)];
    if (value !== undefined && value !== '') given[name] = value;
  }
  return given;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

function positiveInteger(value: string | undefined, fallback: number, option: SmokeOptionName): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new SmokeConfigError(`--${option} must be a positive integer, got ${value}`);
  return parsed;
}

/**
 * Resolves the configuration: options win over the demo file. A surface URL is its own option,
 * else `<base-url>/<stage><basePath>` (one gateway serving every stage, as the local runtime
 * does), else the demo file's `baseUrl` the same way. Every missing value is named at once.
 */
export function resolveSmokeConfig(given: Partial<Record<SmokeOptionName, string>>, cwd = process.cwd(), runId = `${Date.now().toString(36)}`): SmokeConfig {
  const demoPath = given['demo-file'] ?? `${cwd}/.local/demo.json`;
  let demo: DemoFile = {};
  if (existsSync(demoPath)) demo = JSON.parse(readFileSync(demoPath, 'utf8')) as DemoFile;
  else if (given['demo-file']) throw new SmokeConfigError(`--demo-file ${demoPath} does not exist`);

  const missing: string[] = [];
  const need = (option: SmokeOptionName, fromDemo: string | undefined): string => {
    const value = given[option] ?? fromDemo;
    if (value === undefined) missing.push(`--${option} (or ${environmentName(option)})`);
    return value ?? '';
  };

  const baseUrl = given['base-url'] ?? demo.baseUrl;
  const urls = {} as Record<SurfaceName, string>;
  for (const name of Object.keys(surfaces) as SurfaceName[]) {
    const option = `${name}-url` as SmokeOptionName;
    const explicit = given[option];
    const url = explicit ?? (baseUrl ? `${trimSlash(baseUrl)}/${surfaces[name].stage}${surfaces[name].basePath}` : undefined);
    if (url === undefined) missing.push(`--${option} or --base-url`);
    urls[name] = trimSlash(url ?? '');
  }

  const demoTemplate =
    demo.templates?.find((template) => template.status === 'APPROVED' && template.placeholders > 0) ??
    demo.templates?.find((template) => template.status === 'APPROVED');
  const templateName = need('template-name', demoTemplate?.name);
  const chosenDemoTemplate = demo.templates?.find((template) => template.name === templateName);
  const parameters =
    given['template-params'] !== undefined
      ? given['template-params'].split(',')
      : Array.from({ length: chosenDemoTemplate?.placeholders ?? 0 }, (_, index) => `Smoke${index + 1}`);

  const config: SmokeConfig = {
    urls,
    apiKey: need('api-key', demo.apiKey),
    orgToken: need('org-token', demo.orgToken),
    accessToken: need('access-token', demo.accessToken),
    v1ApiKey: need('v1-api-key', demo.v1ApiKey),
    fromPhoneNumber: need('from-phone-number', demo.phoneNumbers?.[0]),
    phoneNumberId: need('phone-number-id', demo.phoneNumberIds?.[0]),
    wabaId: need('waba-id', demo.wabaId),
    template: {
      name: templateName,
      language: need('template-language', chosenDemoTemplate?.language),
      category: need('template-category', chosenDemoTemplate?.category),
      parameters,
    },
    employeeEmail: need('employee-email', demo.employees?.at(-1)),
    webhookVerifyToken: given['verify-token'] ?? demo.webhookVerifyToken,
    metaAppSecret: given['app-secret'] ?? demo.metaAppSecret,
    recipientCount: positiveInteger(given.recipients, 1001, 'recipients'),
    countryCode: given['country-code'] ?? '91',
    pollIntervalMs: positiveInteger(given['poll-interval-ms'], 2500, 'poll-interval-ms'),
    broadcastTimeoutMs: positiveInteger(given['timeout-ms'], 300_000, 'timeout-ms'),
    runId,
  };
  if (missing.length > 0) throw new SmokeConfigError(`missing: ${missing.join(', ')}${existsSync(demoPath) ? '' : ` (and no ${demoPath} to read them from)`}`);
  return config;
}

export function smokeUsage(): string {
  const width = Math.max(...Object.keys(smokeOptions).map((name) => name.length)) + 4;
  return [
    'usage: npm run smoke -- [--base-url <url> | --broadcast-url <url> --organization-url <url> ...] [options]',
    'Every option is also an environment variable SMOKE_<NAME> (e.g. SMOKE_API_KEY); missing values come from .local/demo.json.',
    '',
    ...Object.entries(smokeOptions).map(([name, text]) => `  --${name.padEnd(width - 2)}${text}`),
  ].join('\n');
}
