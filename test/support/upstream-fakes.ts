/**
 * Unit-test kit of the /upstream wrapper: a scripted GraphTransport, two organizations in an
 * in-memory tenancy, the wrapper's dependencies on virtual time, and the group's Lambda handler
 * built from the route table with those dependencies.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { routes } from '../../runtime-contract/all-routes';
import type { RouteDefinition } from '../../runtime-contract/route-manifest';
import { upstreamRouteOf, type UpstreamRouteSpec } from '../../runtime-contract/upstream-routes';
import { buildUpstreamOperations } from '../../functions/upstream-wrapper/operations';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { AuthenticatedCaller } from '../../shared/http/http-operation';
import { InvalidCredentialError } from '../../shared/tenancy/errors';
import { UpstreamUnavailableError } from '../../shared/upstream/errors';
import type { BinaryResponse, GraphRequest, GraphResponse, GraphTransport } from '../../shared/upstream/graph-transport';
import { OwnedIdDirectory } from '../../shared/upstream/owned-ids';
import type { UpstreamWrapperDependencies, UpstreamWrapperSettings } from '../../shared/upstream/ports';
import { sequentialIdGenerator } from '../../shared/ports/id-generator';
import { lambdaContext, proxyEventFor } from './api-gateway-event';
import { InMemorySendPacer, VirtualTime } from './broadcast-fakes';
import { InMemoryPlatformMessageIds, InMemoryWrapperIdRecords } from './in-memory-wrapper-id-records';
import { createTenancyTestKit, type TenancyTestKit } from './tenancy-test-ports';

export type Answer = GraphResponse | ((request: GraphRequest) => GraphResponse | Promise<GraphResponse>);

export const ok = (body: unknown, status = 200): GraphResponse => ({ status, headers: { 'content-type': 'application/json' }, body });
export const graphFailure = (status: number, code: number, extra: Record<string, unknown> = {}): GraphResponse =>
  ok({ error: { message: `(#${code}) upstream says no`, type: 'OAuthException', code, fbtrace_id: 'Atrace123', ...extra } }, status);
export const timeout = (): never => {
  throw new UpstreamUnavailableError('timeout');
};

/** Answers by `METHOD /path` (query ignored), else the fallback; records every request. */
export class ScriptedGraphTransport implements GraphTransport {
  readonly requests: GraphRequest[] = [];
  readonly downloads: Array<{ url: string; accessToken: string }> = [];
  private readonly answers = new Map<string, Answer[]>();
  fallback: Answer = (request) => ok({ echo: `${request.method} ${request.path}` });
  downloadAnswer: (url: string) => BinaryResponse = () => ({ status: 200, headers: { 'content-type': 'image/jpeg' }, body: Buffer.from('JPEGDATA') });

  /** Answers for one call; several answers are used in turn, the last one repeats. */
  on(method: string, path: string, ...answers: Answer[]): this {
    this.answers.set(`${method} ${path}`, answers);
    return this;
  }

  async request(request: GraphRequest): Promise<GraphResponse> {
    this.requests.push(request);
    const list = this.answers.get(`${request.method} ${request.path}`);
    const answer = list ? (list.length > 1 ? list.shift()! : list[0]!) : this.fallback;
    return typeof answer === 'function' ? answer(request) : answer;
  }

  async download(url: string, accessToken: string): Promise<BinaryResponse> {
    this.downloads.push({ url, accessToken });
    return this.downloadAnswer(url);
  }

  /** Requests other than the ownership list reads (templates, flows, QR codes of an account or number). */
  calls(): GraphRequest[] {
    return this.requests.filter((request) => !(request.method === 'GET' && /^\/[^/]+\/(message_templates|flows|message_qrdls)$/.test(request.path)));
  }
}

export const testSettings: UpstreamWrapperSettings = {
  graphBaseUrl: 'https://graph.example.test',
  upstreamTimeoutMs: 15_000,
  defaultMessagesPerSecond: 20,
  ownedIdsTtlMs: 60_000,
  bulk: { maxRecipients: 100, budgetMs: 25_000, concurrency: 8, maxAttempts: 4, backoff: { baseMs: 100, maxMs: 1_000 }, rateLimitHoldMs: 500 },
};

export const ids = {
  waba: '110000000000001',
  secondWaba: '110000000000002',
  phone: '120000000000001',
  secondWabaPhone: '120000000000002',
  otherWaba: '110000000000011',
  otherPhone: '120000000000011',
  template: '130000000000001',
  template2: '130000000000002',
  otherTemplate: '130000000000011',
  flow: '140000000000001',
  otherFlow: '140000000000011',
  media: '150000000000001',
  qr: 'QRCODE1',
} as const;

export interface WrapperKit {
  tenancy: TenancyTestKit;
  graph: ScriptedGraphTransport;
  time: VirtualTime;
  pacer: InMemorySendPacer;
  idRecords: InMemoryWrapperIdRecords;
  platformMessages: InMemoryPlatformMessageIds;
  warnings: Array<{ message: string; facts: Record<string, unknown> }>;
  deps: UpstreamWrapperDependencies;
  org: string;
  otherOrg: string;
  token: string;
  otherToken: string;
  /** Calls the Lambda handler of the group for an operation. */
  call(operation: string, options?: CallOptions): Promise<WrapperResponse>;
}

export interface CallOptions {
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  rawBody?: Buffer;
  headers?: Record<string, string>;
  /** Bearer token; `null` sends none. Default: the first organization's. */
  token?: string | null;
}

export interface WrapperResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
  raw: APIGatewayProxyResult;
}

export async function createWrapperKit(settings: Partial<UpstreamWrapperSettings> = {}): Promise<WrapperKit> {
  const tenancy = createTenancyTestKit();
  const admin = tenancy.services.admin;
  const org = (await admin.createOrganization({ name: 'Demo Retail', plan: 'enterprise' })).organizationId;
  const otherOrg = (await admin.createOrganization({ name: 'Other Org', plan: 'enterprise' })).organizationId;
  await admin.connectBusinessAccount({ organizationId: org, wabaId: ids.waba, businessId: 'biz-demo', name: 'Demo Retail', accessToken: 'EAAG-demo' });
  await admin.connectBusinessAccount({
    organizationId: org,
    wabaId: ids.secondWaba,
    businessId: 'biz-demo',
    name: 'Demo Retail EU',
    accessToken: 'EAAG-demo-eu',
  });
  await admin.connectBusinessAccount({ organizationId: otherOrg, wabaId: ids.otherWaba, businessId: 'biz-other', name: 'Other', accessToken: 'EAAG-other' });
  await admin.addPhoneNumber({ organizationId: org, wabaId: ids.waba, digits: '15550100001', phoneNumberId: ids.phone });
  await admin.addPhoneNumber({ organizationId: org, wabaId: ids.secondWaba, digits: '15550100002', phoneNumberId: ids.secondWabaPhone });
  await admin.addPhoneNumber({ organizationId: otherOrg, wabaId: ids.otherWaba, digits: '15550200001', phoneNumberId: ids.otherPhone });

  const graph = new ScriptedGraphTransport();
  graph.on(
    'GET',
    `/${ids.waba}/message_templates`,
    ok({
      data: [
        { id: ids.template, name: 'order_update' },
        { id: ids.template2, name: 'spring_sale' },
      ],
    }),
  );
  graph.on('GET', `/${ids.waba}/flows`, ok({ data: [{ id: ids.flow, name: 'signup' }] }));
  graph.on('GET', `/${ids.phone}/message_qrdls`, ok({ data: [{ code: ids.qr, prefilled_message: 'Hi' }] }));
  const time = new VirtualTime('2026-03-01T09:00:00.000Z');
  const pacer = new InMemorySendPacer();
  const warnings: WrapperKit['warnings'] = [];
  const idRecords = new InMemoryWrapperIdRecords();
  const platformMessages = new InMemoryPlatformMessageIds();
  // The message id of sampleBody's read receipts: sent by the first organization through the wrapper.
  await idRecords.recordMessages([{ organizationId: org, wabaId: ids.waba, phoneNumberId: ids.phone, id: 'wamid.ABC', recordedAt: time.now() }], 'sent');
  const mergedSettings = { ...testSettings, ...settings, bulk: { ...testSettings.bulk, ...settings.bulk } };
  const deps: UpstreamWrapperDependencies = {
    tenancy: tenancy.services,
    graph,
    ownedIds: new OwnedIdDirectory(mergedSettings.ownedIdsTtlMs),
    idRecords,
    platformMessages,
    pacer,
    clock: time,
    ids: sequentialIdGenerator(),
    sleep: time.sleep,
    random: () => 0.5,
    log: { warn: (message, facts) => warnings.push({ message, facts }) },
    settings: mergedSettings,
  };
  const callers: Record<string, AuthenticatedCaller> = {
    wat_demo: { organizationId: org, credentialId: 'cred_demo', credentialKind: 'upstream-access-token' },
    wat_other: { organizationId: otherOrg, credentialId: 'cred_other', credentialKind: 'upstream-access-token' },
  };
  const handler = createGroupHandler({
    group: 'upstream-wrapper',
    operations: buildUpstreamOperations(),
    routes: routes.filter((route) => route.group === 'upstream-wrapper'),
    dependencies: () => ({
      authenticate: async (_kind, secret) => {
        const caller = secret ? callers[secret] : undefined;
        if (!caller) throw new InvalidCredentialError();
        return caller;
      },
      rateLimiter: { consume: async () => ({ allowed: true, retryAfterSeconds: 0, remaining: 100 }) },
      clock: time,
      upstream: deps,
    }),
  });

  const call = async (operation: string, options: CallOptions = {}): Promise<WrapperResponse> => {
    const route = manifestRouteOf(operation);
    const spec = upstreamRouteOf(operation);
    const token = options.token === undefined ? 'wat_demo' : options.token;
    const headers: Record<string, string> = {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(spec.body === 'json' ? { 'Content-Type': 'application/json' } : {}),
      ...options.headers,
    };
    const event = proxyEventFor(route, {
      headers,
      pathParameters: options.pathParameters ?? samplePathParameters(spec),
      query: options.query,
      body: options.rawBody ? options.rawBody.toString('base64') : options.body === undefined ? null : JSON.stringify(options.body),
    });
    if (options.rawBody) event.isBase64Encoded = true;
    const raw = await time.run(() => handler(event, lambdaContext()));
    let body: unknown = raw.body;
    try {
      body = raw.isBase64Encoded ? Buffer.from(raw.body, 'base64') : JSON.parse(raw.body);
    } catch {
      // keep text
    }
    return { status: raw.statusCode, headers: (raw.headers ?? {}) as Record<string, string>, body, raw };
  };

  return { tenancy, graph, time, pacer, idRecords, platformMessages, warnings, deps, org, otherOrg, token: 'wat_demo', otherToken: 'wat_other', call };
}

export function manifestRouteOf(operation: string): RouteDefinition {
  const route = routes.find((candidate) => candidate.group === 'upstream-wrapper' && candidate.operation === operation);
  if (!route) throw new Error(`no manifest route for ${operation}`);
  return route;
}

/** Path parameters of the first organization that pass every check. */
export function samplePathParameters(spec: UpstreamRouteSpec): Record<string, string> {
  const values: Record<string, string> = {
    wabaId: ids.waba,
    phoneNumberId: ids.phone,
    templateId: ids.template,
    flowId: ids.flow,
    mediaId: ids.media,
    qrCodeId: ids.qr,
  };
  return Object.fromEntries([...spec.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, values[name!]!]));
}

/** A query that satisfies the route's required parameters. */
export function sampleQuery(spec: UpstreamRouteSpec): Record<string, string> {
  const values: Record<string, string> = {
    start: '1735689600',
    end: '1738368000',
    granularity: 'DAY',
    template_ids: `[${ids.template2}]`,
    name: 'order_update',
  };
  const required = [...(spec.requiredQuery ?? []), ...(spec.fieldExpansion?.required ?? [])];
  return Object.fromEntries(required.map((name) => [name, values[name] ?? 'x']));
}

/** A body that satisfies the route's required fields. */
export function sampleBody(spec: UpstreamRouteSpec): Record<string, unknown> | undefined {
  if (spec.body !== 'json') return undefined;
  const values: Record<string, unknown> = {
    to: '15551234567',
    template: { name: 'spring_sale', language: { code: 'en' } },
    message_id: 'wamid.ABC',
    name: 'order_update_v2',
    language: 'en_US',
    category: 'UTILITY',
    library_template_name: 'delivery_update_1',
    prefilled_message: 'Hi!',
    pin: '123456',
    sync_type: 'smb_app_state_sync',
    block_users: [{ user: '15551234567' }],
    categories: ['SIGN_UP'],
  };
  const body: Record<string, unknown> = Object.fromEntries((spec.requiredBody ?? []).map((name) => [name, values[name] ?? 'x']));
  if (spec.operation === 'sendMessage') Object.assign(body, { type: 'text', text: { body: 'hello' } });
  return body;
}
