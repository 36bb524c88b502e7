/**
 * HttpCloudApiClient against a tiny HTTP server on loopback: how each Graph answer is classified.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpCloudApiClient } from '../../../shared/adapters/graph-api/http-cloud-api-client';
import { UpstreamRequestError, UpstreamUnavailableError } from '../../../shared/upstream/errors';

interface SeenRequest {
  method: string;
  url: string;
  authorization?: string;
  contentType?: string;
  body: string;
}

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
const seen: SeenRequest[] = [];

const json =
  (status: number, payload: unknown): Handler =>
  (_request, response) => {
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(payload));
  };
const metaError = (status: number, code: number, message = `error ${code}`) =>
  json(status, { error: { message, type: 'OAuthException', code, error_subcode: 2494055, fbtrace_id: 'AbCdEf' } });

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (part) => (body += part));
    request.on('end', () => {
      seen.push({
        method: request.method!,
        url: request.url!,
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        body,
      });
      handler(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
});

const client = (timeoutMs = 2000) => new HttpCloudApiClient({ baseUrl, version: 'v21.0', timeoutMs });
const body = { messaging_product: 'whatsapp', to: '919800000001', type: 'template', template: { name: 't', language: { code: 'en_US' } } };
const send = (timeoutMs?: number) => client(timeoutMs).sendMessage('pn_1', body, { accessToken: 'tok-123' });

describe('HttpCloudApiClient.sendMessage', () => {
  it('posts the body as JSON with the bearer token and reports the message id', async () => {
    handler = json(200, { messaging_product: 'whatsapp', contacts: [{ wa_id: '919800000001' }], messages: [{ id: 'wamid.HBgM' }] });
    await expect(send()).resolves.toEqual({ kind: 'accepted', messageId: 'wamid.HBgM' });
    expect(seen).toEqual([
      { method: 'POST', url: '/v21.0/pn_1/messages', authorization: 'Bearer tok-123', contentType: 'application/json', body: JSON.stringify(body) },
    ]);
  });

  it('posts to /marketing_messages when the endpoint names the Marketing Messages API, the same body and token', async () => {
    handler = json(200, { messaging_product: 'whatsapp', messages: [{ id: 'wamid.MM', message_status: 'accepted' }] });
    const marketing = { ...body, product_policy: 'CLOUD_API_FALLBACK' };
    await expect(client().sendMessage('pn_1', marketing, { accessToken: 'tok-123' }, { api: 'marketing_messages' })).resolves.toEqual({
      kind: 'accepted',
      messageId: 'wamid.MM',
    });
    await client().sendMessage('pn_1', body, { accessToken: 'tok-123' }, { api: 'messages' });
    expect(seen.map(({ method, url, authorization, body: sent }) => ({ method, url, authorization, body: sent }))).toEqual([
      { method: 'POST', url: '/v21.0/pn_1/marketing_messages', authorization: 'Bearer tok-123', body: JSON.stringify(marketing) },
      { method: 'POST', url: '/v21.0/pn_1/messages', authorization: 'Bearer tok-123', body: JSON.stringify(body) },
    ]);
  });

  it("reports the Marketing Messages API's HTTP 500 with Meta's error (134102) as a rejection: nothing was sent", async () => {
    handler = metaError(500, 134102, '(#134102) Template unavailable for use');
    await expect(client().sendMessage('pn_1', body, { accessToken: 't' }, { api: 'marketing_messages' })).resolves.toMatchObject({
      kind: 'rejected',
      httpStatus: 500,
      error: { code: 134102 },
    });
  });

  it('reports a success without a message id, or with an unreadable body, as unknown', async () => {
    handler = json(200, { messages: [] });
    await expect(send()).resolves.toEqual({ kind: 'unknown', reason: 'success without a message id' });
    handler = (_request, response) => response.writeHead(200).end('<html>ok</html>');
    await expect(send()).resolves.toEqual({ kind: 'unknown', reason: 'unreadable success body' });
  });

  it('reports a Meta error as rejected, not retryable for an undeliverable number (131026)', async () => {
    handler = metaError(400, 131026, 'Message undeliverable');
    await expect(send()).resolves.toEqual({
      kind: 'rejected',
      httpStatus: 400,
      retryable: false,
      error: { message: 'Message undeliverable', type: 'OAuthException', code: 131026, error_subcode: 2494055, fbtrace_id: 'AbCdEf', error_data: undefined },
    });
  });

  it.each([
    ['throughput 130429', 400, 130429],
    ['pair rate 131056', 400, 131056],
    ['WABA rate 80007', 400, 80007],
    ['HTTP 429', 429, 4],
    ['HTTP 500', 500, 1],
    ['HTTP 503', 503, 2],
    ['temporary 131000 on 400', 400, 131000],
  ])('marks %s as retryable', async (_name, status, code) => {
    handler = metaError(status, code);
    await expect(send()).resolves.toMatchObject({ kind: 'rejected', httpStatus: status, retryable: true, error: { code } });
  });

  it.each([
    ['a template problem (132001)', 404, 132001],
    ['a bad parameter (100)', 400, 100],
    ['an expired token (190)', 401, 190],
  ])('marks %s as not retryable', async (_name, status, code) => {
    handler = metaError(status, code);
    await expect(send()).resolves.toMatchObject({ kind: 'rejected', retryable: false, error: { code } });
  });

  it('falls back to the HTTP status as the code when the error body has none', async () => {
    handler = json(500, { error: { message: 'boom' } });
    await expect(send()).resolves.toMatchObject({
      kind: 'rejected',
      httpStatus: 500,
      retryable: true,
      error: { code: 500, message: 'boom', type: 'UpstreamError' },
    });
  });

  it.each([502, 504])('reports HTTP %i (a gateway in front of Meta) as unknown, even with a Meta-like body', async (status) => {
    handler = metaError(status, 1);
    await expect(send()).resolves.toEqual({ kind: 'unknown', reason: `HTTP ${status}` });
  });

  it('reports an error status without a JSON body as unknown', async () => {
    handler = (_request, response) => response.writeHead(500).end('Internal error');
    await expect(send()).resolves.toEqual({ kind: 'unknown', reason: 'HTTP 500 without a body' });
  });

  it('reports a call that outlives the timeout as unknown', async () => {
    handler = () => undefined; // never answers
    const started = Date.now();
    const outcome = await send(150);
    const elapsed = Date.now() - started;
    // Under plain Node the reason is 'timeout'; jest's sandbox is another realm, where the abort
    // DOMException fails `instanceof Error` and reads 'connection failed'. Either way: unknown.
    expect(outcome).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/^(timeout|connection failed)$/) });
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(1500);
    expect(seen).toHaveLength(1);
  });

  it('reports a refused connection as unknown', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = new HttpCloudApiClient({ baseUrl: `http://127.0.0.1:${port}`, version: 'v21.0', timeoutMs: 1000 });
    await expect(refused.sendMessage('pn_1', body, { accessToken: 't' })).resolves.toEqual({ kind: 'unknown', reason: 'connection failed' });
  });
});

describe('HttpCloudApiClient.listTemplates', () => {
  const templateNamed = (name: string) => ({ id: `id_${name}`, name, language: 'en_US', status: 'APPROVED', category: 'UTILITY', components: [] });

  it('follows paging.next until the last page, with the token on every page', async () => {
    handler = (request, response) => {
      const url = new URL(request.url!, baseUrl);
      const after = url.searchParams.get('after');
      const pages: Record<string, { data: unknown[]; next?: string }> = {
        first: { data: [templateNamed('a'), templateNamed('b')], next: 'p2' },
        p2: { data: [templateNamed('c')], next: 'p3' },
        p3: { data: [templateNamed('d')] },
      };
      const page = pages[after ?? 'first']!;
      json(200, {
        data: page.data,
        paging: page.next ? { cursors: {}, next: `${baseUrl}/v21.0/waba_9/message_templates?limit=100&after=${page.next}` } : { cursors: {} },
      })(request, response, '');
    };
    const templates = await client().listTemplates('waba_9', { accessToken: 'tok-9' });
    expect(templates.map((template) => template.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(seen.map((request) => request.url)).toEqual([
      '/v21.0/waba_9/message_templates?fields=id,name,language,status,category,parameter_format,components,quality_score,rejected_reason,optimization_spec&limit=100',
      '/v21.0/waba_9/message_templates?limit=100&after=p2',
      '/v21.0/waba_9/message_templates?limit=100&after=p3',
    ]);
    expect(seen.every((request) => request.method === 'GET' && request.authorization === 'Bearer tok-9' && request.contentType === undefined)).toBe(true);
  });

  it('throws UpstreamRequestError with Meta’s error for a refused read', async () => {
    handler = metaError(401, 190, 'Error validating access token');
    const failure = client().listTemplates('waba_9', { accessToken: 'bad' });
    await expect(failure).rejects.toBeInstanceOf(UpstreamRequestError);
    await expect(failure).rejects.toMatchObject({ httpStatus: 401, graphError: { code: 190, message: 'Error validating access token' } });
  });

  it('throws UpstreamUnavailableError when Meta does not answer in time', async () => {
    handler = () => undefined;
    await expect(client(150).listTemplates('waba_9', { accessToken: 't' })).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });
});

describe('HttpCloudApiClient.messagingLimitOf', () => {
  it('asks the phone number for whatsapp_business_manager_messaging_limit with the bearer token', async () => {
    handler = json(200, { whatsapp_business_manager_messaging_limit: 'TIER_2K', id: 'pn_1' });
    await expect(client().messagingLimitOf('pn_1', { accessToken: 'tok-123' })).resolves.toBe('TIER_2K');
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/v21.0/pn_1?fields=whatsapp_business_manager_messaging_limit', authorization: 'Bearer tok-123' });
  });

  it('answers undefined when the field is absent or not a string', async () => {
    handler = json(200, { id: 'pn_1' });
    await expect(client().messagingLimitOf('pn_1', { accessToken: 'tok-123' })).resolves.toBeUndefined();
    handler = json(200, { id: 'pn_1', whatsapp_business_manager_messaging_limit: { tier: 'TIER_2K' } });
    await expect(client().messagingLimitOf('pn_1', { accessToken: 'tok-123' })).resolves.toBeUndefined();
  });

  it("raises Meta's error, or unavailability when nothing usable came back", async () => {
    handler = metaError(400, 100);
    await expect(client().messagingLimitOf('pn_1', { accessToken: 'tok-123' })).rejects.toBeInstanceOf(UpstreamRequestError);
    handler = (_request, response) => response.end('not json');
    await expect(client().messagingLimitOf('pn_1', { accessToken: 'tok-123' })).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });
});

describe('HttpCloudApiClient.marketingMessagesOnboardingOf', () => {
  it('asks the business account for marketing_messages_onboarding_status with the bearer token', async () => {
    handler = json(200, { marketing_messages_onboarding_status: 'ONBOARDED', id: 'waba_9' });
    await expect(client().marketingMessagesOnboardingOf('waba_9', { accessToken: 'tok-9' })).resolves.toBe('ONBOARDED');
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/v21.0/waba_9?fields=marketing_messages_onboarding_status', authorization: 'Bearer tok-9' });
  });

  it('answers undefined when the field is absent, and raises a refusal or no answer', async () => {
    handler = json(200, { id: 'waba_9' });
    await expect(client().marketingMessagesOnboardingOf('waba_9', { accessToken: 't' })).resolves.toBeUndefined();
    handler = metaError(400, 100, '(#100) Tried accessing nonexisting field (marketing_messages_onboarding_status)');
    await expect(client().marketingMessagesOnboardingOf('waba_9', { accessToken: 't' })).rejects.toBeInstanceOf(UpstreamRequestError);
    handler = () => undefined;
    await expect(client(150).marketingMessagesOnboardingOf('waba_9', { accessToken: 't' })).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });
});
