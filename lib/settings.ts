/**
 * Deployment settings of the CDK app, read once from CDK context (`-c key=value` or cdk.json)
 * with the process environment as fallback. Values given with `-c` arrive as strings, so
 * booleans and numbers are parsed here rather than trusted.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { defaultMetricsNamespace } from '../runtime-contract/observability';
import { routeGuards, type RouteGuard, type RouteGuardName } from '../runtime-contract/route-guards';
import { sourceRangesOf } from '../shared/meta-app/webhook-source-guard';
import { pascal } from './naming';
import type { PeopleIssuer } from '../shared/config/app-config';

/** Repository root (this file lives in `lib/`). Entry files, lock file and package.json are found from it. */
export const projectRoot = path.resolve(__dirname, '..');

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

export interface PlatformSettings {
  /** Prefix of the CloudFormation stack names: `<prefix>-Stateful`, `<prefix>-Api`. */
  stackNamePrefix: string;
  account?: string;
  region?: string;
  /** Synthesize placeholder code instead of bundling the Lambda entries (tests, offline synth). */
  skipBundling: boolean;
  serviceName: string;
  serviceVersion: string;
  logLevel: LogLevel;
  metricsNamespace: string;
  upstream: { baseUrl: string; version: string; timeoutMs: number };
  /** Stage-wide default throttle of every REST API (requests per second / bucket size). */
  stageThrottle: { rateLimit: number; burstLimit: number };
  /** Optional `environment` tag (e.g. staging, production). */
  environmentName?: string;
  /** Email address subscribed to the alarm topic (`-c alarmEmail=ops@example.com`); none without it. */
  alarmEmail?: string;
  /** WAF rate-based rules (requests per source IP); see docs/OPERATIONS.md "WAF". */
  firewall: FirewallLimits;
  /** No WAF web ACLs (`-c skipFirewall=true`): for LocalStack without WAFv2 only (docs/TESTING.md "LocalStack"). */
  skipFirewall: boolean;
  /** Scheduled broadcasts: the earliest `scheduledAt` from now, in seconds (`-c scheduleMinLeadSeconds=…`, default 300). */
  scheduleMinLeadSeconds: number;
  /**
   * The only source ranges Meta's webhook endpoint hears (`-c metaWebhookSourceRanges=157.240.0.0/16,…`;
   * none: every address), set on meta-webhook as META_WEBHOOK_SOURCE_RANGES (docs/OPERATIONS.md "Front doors").
   */
  metaWebhookSourceRanges: string[];
  /**
   * People's sign-in (docs/PEOPLE.md "On AWS"): the user pool's hosted domain prefix
   * (`-c cognitoDomainPrefix=`; absent: derived from the stack) and the external OpenID Connect
   * issuers accepted after the pool (`-c peopleIssuers='[{"issuer":…,"audience":…}]'`).
   */
  people: { cognitoDomainPrefix?: string; issuers: PeopleIssuer[] };
}

export interface FirewallLimits {
  /** Requests per IP per 5 minutes on the API surfaces (broadcast, organization, v1, upstream). */
  apiRequestsPerIpPer5Minutes: number;
  /**
   * Requests per IP per 5 minutes on a webhooks web ACL outside its guarded routes (unknown paths). Used
   * only while a REST API serves Meta's webhooks; today an HTTP API does, which takes no WAF
   * (docs/OPERATIONS.md "Front doors").
   */
  webhookRequestsPerIpPer5Minutes: number;
  /**
   * Requests per IP per the guard's window on each guarded route group with a WAF rule of its own
   * (runtime-contract/route-guards.ts `perIp`, e.g. key generation 10 per minute), by guard name.
   */
  routeGuardsPerIp: Partial<Record<RouteGuardName, number>>;
}

/** The context key of a guard's per-IP limit: `key-generation` → `wafKeyGenerationRateLimit`. */
export const guardRateLimitContextKey = (guard: RouteGuardName): string => `waf${pascal(guard)}RateLimit`;

/** Anything that can answer context look-ups: an App's or a Stack's `node`. */
export interface ContextSource {
  tryGetContext(key: string): unknown;
}

const asString = (value: unknown): string | undefined => (value === undefined || value === null || value === '' ? undefined : String(value));

export const asBoolean = (value: unknown): boolean => {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return ['true', '1', 'yes'].includes(value.trim().toLowerCase());
  return false;
};

const asPositiveNumber = (value: unknown, fallback: number, name: string): number => {
  if (value === undefined || value === null || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`Context value ${name} must be a positive number, got ${String(value)}`);
  return parsed;
};

const logLevels: readonly LogLevel[] = ['DEBUG', 'INFO', 'WARN', 'ERROR'];

const readPackageJson = (): { name: string; version: string } =>
  JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { name: string; version: string };

export function readSettings(context: ContextSource, env: NodeJS.ProcessEnv = process.env): PlatformSettings {
  const ctx = (key: string) => context.tryGetContext(key);
  const pkg = readPackageJson();
  const logLevel = (asString(ctx('logLevel')) ?? 'INFO').toUpperCase() as LogLevel;
  if (!logLevels.includes(logLevel)) throw new Error(`Context value logLevel must be one of ${logLevels.join(', ')}`);

  return {
    stackNamePrefix: asString(ctx('stackNamePrefix')) ?? 'WhatsAppPlatform',
    account: asString(ctx('account')) ?? asString(env.CDK_DEFAULT_ACCOUNT),
    region: asString(ctx('region')) ?? asString(env.CDK_DEFAULT_REGION),
    skipBundling: asBoolean(ctx('skipBundling')),
    serviceName: asString(ctx('serviceName')) ?? pkg.name,
    serviceVersion: asString(ctx('serviceVersion')) ?? pkg.version,
    logLevel,
    metricsNamespace: asString(ctx('metricsNamespace')) ?? defaultMetricsNamespace,
    upstream: {
      // Defaults equal shared/config/app-config.ts, so the deployed functions behave like local runs.
      baseUrl: asString(ctx('graphApiBaseUrl')) ?? 'https://graph.facebook.com',
      version: asString(ctx('graphApiVersion')) ?? 'v25.0',
      timeoutMs: asPositiveNumber(ctx('upstreamTimeoutMs'), 15_000, 'upstreamTimeoutMs'),
    },
    // Far below the account's regional 10,000 rps shared by all APIs and the default Lambda
    // concurrency of 1,000: one noisy surface cannot starve the others. Per-key limits live in usage plans.
    stageThrottle: {
      rateLimit: asPositiveNumber(ctx('stageRateLimit'), 200, 'stageRateLimit'),
      burstLimit: asPositiveNumber(ctx('stageBurstLimit'), 400, 'stageBurstLimit'),
    },
    environmentName: asString(ctx('environment')),
    // The function reads BROADCAST_SCHEDULE_MIN_LEAD_SECONDS; the template carries it so a deployed
    // run (test:deployed synthesizes with 1) changes the assembly, never the functions' environment.
    scheduleMinLeadSeconds: asPositiveNumber(ctx('scheduleMinLeadSeconds'), 300, 'scheduleMinLeadSeconds'),
    alarmEmail: readAlarmEmail(ctx('alarmEmail')),
    metaWebhookSourceRanges: readSourceRanges(ctx('metaWebhookSourceRanges')),
    skipFirewall: asBoolean(ctx('skipFirewall')),
    people: { cognitoDomainPrefix: asString(ctx('cognitoDomainPrefix')), issuers: readPeopleIssuers(ctx('peopleIssuers')) },
    firewall: {
      // 20 requests/s per address over 5 minutes: above one v1 enterprise key (1,000/min) or the
      // broadcast plan's key-wide rate (12/s), so the exact application and usage-plan limits answer
      // first; several keys behind one NAT still fit. Against floods, not against customers.
      apiRequestsPerIpPer5Minutes: asPositiveNumber(ctx('wafApiRateLimit'), 6_000, 'wafApiRateLimit'),
      // Meta sends every status of every message (80-1,000 messages/s per number, up to three
      // statuses each) from a handful of addresses; a low limit would block Meta itself.
      webhookRequestsPerIpPer5Minutes: asPositiveNumber(ctx('wafWebhookRateLimit'), 500_000, 'wafWebhookRateLimit'),
      // Defaults and reasons in runtime-contract/route-guards.ts (key generation: WAF's smallest
      // limit, 10 per minute, above the contract's 5, so the application's exact 429 answers first).
      routeGuardsPerIp: Object.fromEntries(
        (Object.entries(routeGuards) as Array<[RouteGuardName, RouteGuard]>).flatMap(([name, guard]) => {
          if (!guard.perIp) return [];
          const key = guardRateLimitContextKey(name);
          return [[name, asPositiveNumber(ctx(key), guard.perIp.limit, key)]];
        }),
      ),
    },
  };
}

/** The alarm email from context, checked for a plausible address (SNS would accept garbage and never deliver). */
function readAlarmEmail(value: unknown): string | undefined {
  const email = asString(value)?.trim();
  if (email === undefined) return undefined;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error(`Context value alarmEmail must be an email address, got ${email}`);
  return email;
}

/** CIDR ranges from a comma-separated string or a cdk.json list; a synth with one that is not a range fails, naming it. */
function readSourceRanges(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  const ranges = (Array.isArray(value) ? value.map(String) : String(value).split(',')).map((range) => range.trim()).filter((range) => range !== '');
  try {
    sourceRangesOf(ranges);
  } catch (error) {
    throw new Error(`Context value metaWebhookSourceRanges: ${(error as Error).message}`, { cause: error });
  }
  return ranges;
}

/**
 * External issuers from a JSON array (string with `-c`, a list in cdk.json): each an https issuer
 * and an audience (its client id for the console); a synth with anything else fails, naming it.
 */
export function readPeopleIssuers(value: unknown): PeopleIssuer[] {
  if (value === undefined || value === null || value === '') return [];
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new Error('Context value peopleIssuers must be a JSON array of { issuer, audience, userInfo? }');
    }
  }
  if (!Array.isArray(parsed)) throw new Error('Context value peopleIssuers must be a JSON array of { issuer, audience, userInfo? }');
  return parsed.map((entry: unknown, index) => {
    const candidate = (entry ?? {}) as Partial<Record<keyof PeopleIssuer, unknown>>;
    if (typeof candidate.issuer !== 'string' || !/^https:\/\/[^\s]+$/.test(candidate.issuer))
      throw new Error(`Context value peopleIssuers[${index}].issuer must be an https URL`);
    if (typeof candidate.audience !== 'string' || candidate.audience === '')
      throw new Error(`Context value peopleIssuers[${index}].audience must be a non-empty string (the console's client id at that issuer)`);
    if (candidate.userInfo !== undefined && typeof candidate.userInfo !== 'boolean')
      throw new Error(`Context value peopleIssuers[${index}].userInfo must be true or false`);
    return { issuer: candidate.issuer, audience: candidate.audience, ...(candidate.userInfo === undefined ? {} : { userInfo: candidate.userInfo }) };
  });
}
