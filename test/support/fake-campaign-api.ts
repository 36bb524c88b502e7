/**
 * A fake of the broadcast API's audiences and campaigns routes on node:http (an ephemeral port),
 * for the CLI's unit tests: audiences kept in memory with members upserted by person, Idempotency-Key
 * replays (`Idempotent-Replayed: true`), a member's attribute over 1,024 characters refused in
 * `invalid`, campaigns answering views from a script, the recipients CSV in pages (`X-Next-Cursor`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey?: string;
  body?: unknown;
}

interface FakeAudience {
  audienceId: string;
  name: string;
  createdAt: string;
  members: Map<string, Record<string, unknown>>;
}

export interface FakeCampaignApi {
  baseUrl: string;
  requests: RecordedRequest[];
  audiences: Map<string, FakeAudience>;
  /** Views `GET /campaigns/{id}` answers in turn (the last one repeats). */
  campaignViews: Array<Record<string, unknown>>;
  dryRun: Record<string, unknown>;
  /** Pages of `GET /campaigns/{id}/recipients?format=csv`. */
  recipientPages: string[];
  close: () => Promise<void>;
}

const prefix = '/prod/api/v2/broadcast/public';

function answer(response: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ statusCode: status, message: status < 300 ? 'ok' : String((data as { message?: string }).message), data }));
}

function upsertMembers(audience: FakeAudience, members: Array<Record<string, unknown>>) {
  let added = 0;
  let updated = 0;
  const invalid: Array<{ index: number; field: string; rule: string }> = [];
  members.forEach((member, index) => {
    const long = Object.entries((member.attributes ?? {}) as Record<string, string>).find(([, value]) => value.length > 1024);
    if (long) {
      invalid.push({ index, field: `members[${index}].attributes.${long[0]}`, rule: 'must be at most 1024 characters' });
      return;
    }
    const person = member.userId ? `u:${String(member.userId)}` : `p:${String(member.countryCode)}${String(member.toPhoneNumber)}`;
    if (audience.members.has(person)) updated += 1;
    else added += 1;
    audience.members.set(person, { ...audience.members.get(person), ...member });
  });
  return { added, updated, invalid };
}

/**
 * Starts the fake; `close` stops it.
 *
 * @example
 * const api = await startFakeCampaignApi();
 * await broadcastCli(['audience', 'list', '--base-url', api.baseUrl, '--api-key', 'bk_test'], output);
 */
export async function startFakeCampaignApi(): Promise<FakeCampaignApi> {
  const replies = new Map<string, { status: number; data: unknown }>();
  const api: FakeCampaignApi = {
    baseUrl: '',
    requests: [],
    audiences: new Map(),
    campaignViews: [],
    dryRun: {},
    recipientPages: [],
    close: async () => undefined,
  };
  let views = 0;
  const route = (request: IncomingMessage, body: unknown, response: ServerResponse): void => {
    const url = new URL(request.url!, 'http://fake');
    const path = url.pathname.slice(prefix.length);
    const key = request.headers['idempotency-key'] as string | undefined;
    api.requests.push({
      method: request.method!,
      path: `${path}${url.search}`,
      ...(key ? { idempotencyKey: key } : {}),
      ...(body === undefined ? {} : { body }),
    });
    const members = /^\/audiences\/([^/]+)\/members$/.exec(path);
    const audienceMatch = /^\/audiences\/([^/]+)$/.exec(path);
    if (request.method === 'POST' && path === '/audiences') {
      const audience = {
        audienceId: `aud_${api.audiences.size + 1}`,
        name: (body as { name: string }).name,
        createdAt: '2026-12-01T10:00:00.000Z',
        members: new Map(),
      };
      api.audiences.set(audience.audienceId, audience);
      return answer(response, 201, { audienceId: audience.audienceId, name: audience.name, memberCount: 0, createdAt: audience.createdAt });
    }
    const view = (audience: FakeAudience) => ({
      audienceId: audience.audienceId,
      name: audience.name,
      memberCount: audience.members.size,
      createdAt: audience.createdAt,
      updatedAt: audience.createdAt,
    });
    if (request.method === 'GET' && path === '/audiences') return answer(response, 200, { audiences: [...api.audiences.values()].map(view), nextCursor: null });
    if (audienceMatch && request.method === 'GET') {
      const audience = api.audiences.get(audienceMatch[1]!);
      return audience ? answer(response, 200, view(audience)) : answer(response, 404, { message: 'Audience not found' });
    }
    if (members && request.method === 'POST') {
      const replay = key && replies.get(key);
      if (replay) return answer(response, replay.status, replay.data, { 'Idempotent-Replayed': 'true' });
      const data = upsertMembers(api.audiences.get(members[1]!)!, (body as { members: Array<Record<string, unknown>> }).members);
      if (key) replies.set(key, { status: 200, data });
      return answer(response, 200, data);
    }
    if (request.method === 'POST' && path === '/campaigns')
      return answer(response, 201, { campaignId: 'cmp_1', name: (body as { name: string }).name, state: 'DRAFT', createdAt: '2026-12-01T10:00:00.000Z' });
    if (request.method === 'POST' && path === '/campaigns/cmp_1/launch') {
      return url.searchParams.get('dryRun') === 'true' ? answer(response, 200, api.dryRun) : answer(response, 202, { campaignId: 'cmp_1', state: 'LAUNCHING' });
    }
    if (request.method === 'GET' && path === '/campaigns/cmp_1')
      return answer(response, 200, api.campaignViews[Math.min(views++, api.campaignViews.length - 1)]);
    if (request.method === 'GET' && path === '/campaigns/cmp_1/recipients') {
      const page = Number(url.searchParams.get('cursor') ?? '0');
      const next = page + 1 < api.recipientPages.length ? { 'X-Next-Cursor': String(page + 1) } : {};
      response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', ...next });
      return void response.end(api.recipientPages[page]);
    }
    answer(response, 404, { message: `no route ${request.method} ${path}` });
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => route(request, chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  api.baseUrl = `http://127.0.0.1:${port}/prod/api/v2`;
  api.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return api;
}
