/** Helpers of the /upstream integration tests: calls through the local gateway with the demo tenant. */
import type { TestResponse, TestRuntime } from '../../support/local-runtime';
import { recordAnswer } from '../../support/openapi-conformance';
import type { UpstreamRouteSpec } from '../../../runtime-contract/upstream-routes';
import { getServices } from '../../../functions/composition';
import { demoIds as demoTenantIds } from '../../../local/demo-tenant';
import type { SandboxBusinessAccount } from '../../../sandbox/cloud-api-sandbox';

export const UPSTREAM = '/staging/api/v2/upstream';

/** The demo tenant's fixed sandbox ids (local/demo-tenant.ts). */
export const demoIds = {
  templateOrderUpdate: demoTenantIds.templateIds.order_update,
  templateSpringSale: demoTenantIds.templateIds.spring_sale,
  otherOrgTemplate: demoTenantIds.otherOrg.templateIds.appointment_reminder,
  /** The token the sandbox accepts for the demo account (what the wrapper sends upstream). */
  upstreamToken: demoTenantIds.upstreamToken,
};

export interface WrapperCallOptions {
  token?: string | null;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

export function wrapperCall(runtime: TestRuntime, method: string, path: string, options: WrapperCallOptions = {}): Promise<TestResponse> {
  const token = options.token === undefined ? runtime.demo.accessToken : options.token;
  const search = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
  return runtime.call(method, `${UPSTREAM}${path}${search}`, {
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...options.headers },
    body: options.body,
  });
}

export interface FilePart {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

/** A multipart/form-data request (fetch writes the boundary), as a client would send it. */
export async function multipartCall(
  runtime: TestRuntime,
  path: string,
  parts: FilePart[],
  token: string | null = runtime.demo.accessToken,
): Promise<TestResponse> {
  const form = new FormData();
  for (const part of parts) {
    if (part.filename !== undefined) form.append(part.name, new Blob([part.value], { type: part.type ?? 'application/octet-stream' }), part.filename);
    else form.append(part.name, typeof part.value === 'string' ? part.value : part.value.toString());
  }
  const response = await fetch(`${runtime.baseUrl}${UPSTREAM}${path}`, {
    method: 'POST',
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    body: form,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep text
  }
  recordAnswer({ method: 'POST', path: `${UPSTREAM}${path}`, status: response.status, headers: response.headers, body, rawText: text });
  return { status: response.status, headers: response.headers, body };
}

/** `{param}` of a route path filled from `values`. */
export function pathOf(route: UpstreamRouteSpec, values: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for ${name}`);
    return encodeURIComponent(value);
  });
}

/** A tiny valid PNG (1×1). */
export const PNG_1X1 = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

export const FLOW_JSON = JSON.stringify({
  version: '7.0',
  screens: [
    {
      id: 'WELCOME',
      title: 'Welcome',
      terminal: true,
      layout: { type: 'SingleColumnLayout', children: [{ type: 'Footer', label: 'Done', 'on-click-action': { name: 'complete', payload: {} } }] },
    },
  ],
});

/**
 * A second business account of the demo organization and of the same Meta business as the demo's
 * (businessId 110000000000000): a valid template-migration source. Seven approved templates, so the
 * sandbox's pages of five give two pages; `order_update` (en_US) and `spring_sale` (en) clash with
 * the destination's.
 */
export const MIGRATION_SOURCE: SandboxBusinessAccount = {
  wabaId: '110000000000002',
  businessId: demoTenantIds.businessId,
  name: 'Demo Retail EU',
  accessToken: 'sandbox-token-demo-retail-eu',
  phoneNumbers: [{ id: '120000000000003', displayPhoneNumber: '15550100003', verifiedName: 'Demo Retail EU', qualityRating: 'GREEN' }],
  templates: [
    ['160000000000001', 'order_update', 'en_US'],
    ['160000000000002', 'spring_sale', 'en'],
    ['160000000000003', 'eu_welcome', 'en'],
    ['160000000000004', 'eu_receipt', 'en'],
    ['160000000000005', 'eu_delivery', 'en'],
    ['160000000000006', 'eu_survey', 'en'],
    ['160000000000007', 'eu_goodbye', 'en'],
  ].map(([id, name, language]) => ({
    id: id!,
    name: name!,
    language: language!,
    category: 'UTILITY' as const,
    status: 'APPROVED' as const,
    components: [{ type: 'BODY', text: `Template ${name}` }],
  })),
};

/** Registers MIGRATION_SOURCE with the sandbox and connects it to the demo organization (as an operator would). */
export async function connectMigrationSource(runtime: TestRuntime): Promise<void> {
  runtime.sandbox!.registerBusinessAccount(MIGRATION_SOURCE);
  const admin = getServices().tenancy.admin;
  await admin.connectBusinessAccount({
    organizationId: runtime.demo.organizationId,
    wabaId: MIGRATION_SOURCE.wabaId,
    businessId: MIGRATION_SOURCE.businessId,
    name: MIGRATION_SOURCE.name,
    accessToken: MIGRATION_SOURCE.accessToken,
  });
  await admin.addPhoneNumber({
    organizationId: runtime.demo.organizationId,
    wabaId: MIGRATION_SOURCE.wabaId,
    digits: MIGRATION_SOURCE.phoneNumbers[0]!.displayPhoneNumber,
    phoneNumberId: MIGRATION_SOURCE.phoneNumbers[0]!.id,
  });
}
