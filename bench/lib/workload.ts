/**
 * Tenants and broadcast bodies for the benchmarks, created through the same admin use cases an
 * operator uses (services.tenancy.admin.*), with a matching business account in the sandbox.
 */
import type { Services } from '../../functions/composition';
import type { CloudApiSandbox, SandboxBusinessAccount } from '../../sandbox/cloud-api-sandbox';

export const BROADCAST_PATH = '/prod/api/v2/broadcast/public/send-template-broadcast';
export const BENCH_TEMPLATE = { name: 'bench_update', language: 'en_US', category: 'UTILITY' as const };
/** A rich template (issue 24), as the demo's order_shipped: image header, two body values, a URL button with a variable. */
export const BENCH_RICH_TEMPLATE = { name: 'bench_shipped', language: 'en_US', category: 'UTILITY' as const };
/** The rich body's header, the same for every recipient (broadcast level). */
export const BENCH_HEADER = { type: 'image' as const, link: 'https://cdn.example.com/bench/shipped.jpg' };

export interface BenchTenant {
  organizationId: string;
  wabaId: string;
  phoneNumber: string;
  phoneNumberId: string;
  accessToken: string;
  messagesPerSecond: number;
}

/** Deterministic, distinct identifiers per tenant number `n` (0-999). */
const ids = (n: number) => {
  const suffix = String(n).padStart(3, '0');
  return {
    wabaId: `210000000000${suffix}`,
    businessId: `209000000000${suffix}`,
    phoneNumberId: `220000000000${suffix}`,
    phoneNumber: `1555030${String(n).padStart(4, '0')}`,
    templateId: `230000000000${suffix}`,
    richTemplateId: `230000000001${suffix}`,
  };
};

export async function createBenchTenant(services: Services, sandbox: CloudApiSandbox, n: number, messagesPerSecond: number): Promise<BenchTenant> {
  const { wabaId, businessId, phoneNumberId, phoneNumber, templateId, richTemplateId } = ids(n);
  const accessToken = `sandbox-token-bench-${n}`;
  const account: SandboxBusinessAccount = {
    wabaId,
    businessId,
    name: `Bench ${n}`,
    accessToken,
    phoneNumbers: [{ id: phoneNumberId, displayPhoneNumber: phoneNumber, verifiedName: `Bench ${n}`, qualityRating: 'GREEN' }],
    templates: [
      {
        id: templateId,
        name: BENCH_TEMPLATE.name,
        language: BENCH_TEMPLATE.language,
        category: BENCH_TEMPLATE.category,
        status: 'APPROVED',
        components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.' }],
      },
      {
        id: richTemplateId,
        name: BENCH_RICH_TEMPLATE.name,
        language: BENCH_RICH_TEMPLATE.language,
        category: BENCH_RICH_TEMPLATE.category,
        status: 'APPROVED',
        components: [
          { type: 'HEADER', format: 'IMAGE', example: { header_handle: [BENCH_HEADER.link] } },
          { type: 'BODY', text: 'Hi {{1}}, your order {{2}} is on its way.' },
          { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example/track/{{1}}', example: ['https://shop.example/track/A-1'] }] },
        ],
      },
    ],
  };
  sandbox.registerBusinessAccount(account);

  const admin = services.tenancy.admin;
  const organization = await admin.createOrganization({ name: `Bench org ${n}`, plan: 'enterprise' });
  const organizationId = organization.organizationId;
  await admin.setSubscription({
    organizationId,
    status: 'active',
    plan: 'enterprise',
    currentPeriodEnd: new Date(Date.now() + 365 * 86_400_000).toISOString(),
  });
  await admin.connectBusinessAccount({ organizationId, wabaId, businessId, name: account.name, accessToken, messagesPerSecond });
  await admin.addPhoneNumber({ organizationId, wabaId, digits: phoneNumber, phoneNumberId });
  return { organizationId, wabaId, phoneNumber, phoneNumberId, accessToken, messagesPerSecond };
}

export async function issueKey(services: Services, organizationId: string): Promise<string> {
  return (await services.tenancy.admin.issueCredential({ organizationId, kind: 'broadcast-api-key' })).secret;
}

export interface Recipient {
  countryCode: string;
  toPhoneNumber: string;
  templateParams: string[];
  /** Rich bodies only: the recipient's own URL suffix. */
  buttons?: Array<{ index: 0; type: 'url'; text: string }>;
}

/**
 * The `index`th bench recipient's Indian national number (calling code 91) of body or audience
 * `seed` (0-99): seeds 10,000,000 numbers apart, so different seeds share no recipient.
 */
export const benchNationalNumber = (seed: number, index: number): string => String(9_000_000_000 + seed * 10_000_000 + index);

/**
 * A send-template-broadcast body of `count` distinct recipients with their own parameters.
 * `seed` (0-99) shifts every number, so bodies of different seeds share no recipient. `rich`: the
 * rich template, a broadcast-level image header and each recipient's own URL button (issue 24).
 */
export function broadcastBody(options: { count: number; seed: number; from: string; name: string; rich?: boolean }): {
  broadcastName: string;
  fromPhoneNumber: string;
  templateName: string;
  templateLanguage: string;
  templateType: 'UTILITY';
  header?: typeof BENCH_HEADER;
  data: Recipient[];
} {
  const template = options.rich ? BENCH_RICH_TEMPLATE : BENCH_TEMPLATE;
  return {
    broadcastName: options.name,
    fromPhoneNumber: options.from,
    templateName: template.name,
    templateLanguage: template.language,
    templateType: template.category,
    ...(options.rich && { header: BENCH_HEADER }),
    data: Array.from({ length: options.count }, (_, index) => ({
      countryCode: '91',
      toPhoneNumber: benchNationalNumber(options.seed, index),
      templateParams: [`Customer ${index}`, `ORD-${options.seed}-${index}`],
      ...(options.rich && { buttons: [{ index: 0 as const, type: 'url' as const, text: `ORD-${options.seed}-${index}` }] }),
    })),
  };
}

export async function postBroadcast(
  baseUrl: string,
  apiKey: string,
  text: string,
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; body: any; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${BROADCAST_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey, ...extraHeaders },
    body: text,
  });
  const answer = await response.text();
  const ms = performance.now() - started;
  let body: unknown = answer;
  try {
    body = JSON.parse(answer);
  } catch {
    // keep the text
  }
  return { status: response.status, body, ms };
}

/**
 * startLocalRuntime copies its handler environment into process.env and never takes it out again,
 * so `environment` given to one runtime would leak into the next one in the same process. The
 * benchmarks start several runtimes: each one runs inside this, which puts process.env back.
 */
export async function withRestoredEnvironment<T>(work: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  try {
    return await work();
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
}
