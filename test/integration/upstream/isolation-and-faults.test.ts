/**
 * Every /upstream route through the local runtime (gateway → Lambda handler → dynalite → sandbox):
 * 401 without a valid access token, 404 for another organization's ids of every kind (before any
 * upstream call), and 502 when the Cloud API does not answer within UPSTREAM_TIMEOUT_MS.
 */
import { upstreamRoutes, type UpstreamRouteSpec } from '../../../runtime-contract/upstream-routes';
import { startTestRuntime, type TestResponse, type TestRuntime } from '../../support/local-runtime';
import { sampleBody, sampleQuery } from '../../support/upstream-fakes';
import { connectMigrationSource, demoIds, FLOW_JSON, MIGRATION_SOURCE, multipartCall, pathOf, PNG_1X1, wrapperCall } from './upstream-kit';

let runtime: TestRuntime;
/** Ids of the demo organization that pass every check, and the other organization's of each kind. */
let own: Record<string, string>;
let foreign: Record<string, string>;
let ownMessageId: string;

beforeAll(async () => {
  runtime = await startTestRuntime({ environment: { UPSTREAM_TIMEOUT_MS: '300', UPSTREAM_BULK_BUDGET_MS: '5000' } });
  await connectMigrationSource(runtime);
  const other = runtime.demo.otherOrg;
  // The other organization's flow, QR code and media, made through the wrapper with its own token.
  const flow = await wrapperCall(runtime, 'POST', `/wabas/${other.wabaId}/flows`, {
    token: other.accessToken,
    body: { name: 'other_flow', categories: ['OTHER'] },
  });
  const qr = await wrapperCall(runtime, 'POST', `/phone-numbers/${other.phoneNumberId}/qr-codes`, {
    token: other.accessToken,
    body: { prefilled_message: 'Other', generate_qr_image: 'SVG' },
  });
  const media = await multipartCall(
    runtime,
    `/phone-numbers/${other.phoneNumberId}/media`,
    [{ name: 'file', value: PNG_1X1, filename: 'o.png', type: 'image/png' }],
    other.accessToken,
  );
  expect([flow.status, qr.status, media.status]).toEqual([200, 200, 200]);
  // And the demo organization's own, so only the id under test differs.
  const ownFlow = await wrapperCall(runtime, 'POST', `/wabas/${runtime.demo.wabaId}/flows`, { body: { name: 'own_flow', categories: ['OTHER'] } });
  const ownQr = await wrapperCall(runtime, 'POST', `/phone-numbers/${runtime.demo.phoneNumberIds[0]}/qr-codes`, {
    body: { prefilled_message: 'Own', generate_qr_image: 'SVG' },
  });
  const ownMedia = await multipartCall(runtime, `/phone-numbers/${runtime.demo.phoneNumberIds[0]}/media`, [
    { name: 'file', value: PNG_1X1, filename: 'd.png', type: 'image/png' },
  ]);
  expect([ownFlow.status, ownQr.status, ownMedia.status]).toEqual([200, 200, 200]);
  // A message of its own, for the read receipt and typing routes (a message id must be the organization's).
  const ownMessage = await wrapperCall(runtime, 'POST', `/phone-numbers/${runtime.demo.phoneNumberIds[0]}/messages`, {
    body: { to: '15551230009', type: 'text', text: { body: 'Hi' } },
  });
  expect(ownMessage.status).toBe(200);
  ownMessageId = ownMessage.body.messages[0].id;

  own = {
    wabaId: runtime.demo.wabaId,
    phoneNumberId: runtime.demo.phoneNumberIds[0]!,
    templateId: demoIds.templateOrderUpdate,
    flowId: ownFlow.body.id,
    qrCodeId: ownQr.body.code,
    mediaId: ownMedia.body.id,
  };
  foreign = {
    wabaId: other.wabaId,
    phoneNumberId: other.phoneNumberId,
    templateId: demoIds.otherOrgTemplate,
    flowId: flow.body.id,
    qrCodeId: qr.body.code,
    mediaId: media.body.id,
  };
}, 60_000);

afterAll(async () => {
  await runtime?.close();
});

const bulkBody = { template: { name: 'order_update', language: 'en_US' }, recipients: [{ to: '15551230001', parameters: ['Ada', 'A-1'] }] };

/** One valid request of a route, with the given path ids. */
function send(route: UpstreamRouteSpec, ids: Record<string, string>, token?: string | null): Promise<TestResponse> {
  const path = pathOf(route, ids);
  if (route.operation === 'uploadMedia') return multipartCall(runtime, path, [{ name: 'file', value: PNG_1X1, filename: 'a.png', type: 'image/png' }], token);
  if (route.operation === 'uploadFlowJson')
    return multipartCall(runtime, path, [{ name: 'file', value: FLOW_JSON, filename: 'flow.json', type: 'application/json' }], token);
  const query = { ...sampleQuery(route), ...(route.operation === 'compareTemplates' ? { template_ids: `[${demoIds.templateSpringSale}]` } : {}) };
  const body =
    route.operation === 'sendBulkTemplate'
      ? bulkBody
      : route.operation === 'migrateTemplates'
        ? { sourceWabaId: MIGRATION_SOURCE.wabaId, pageNumber: 0 }
        : route.bodyIds === 'status'
          ? { message_id: ownMessageId }
          : sampleBody(route);
  return wrapperCall(runtime, route.method, path, { token, query, body });
}

const rows = upstreamRoutes.map((route) => ({ ...route, key: `${route.method} /upstream${route.path}` }));

describe.each(rows)('$key', (route) => {
  it('answers 401 without a valid access token (none, unknown, or another kind of credential)', async () => {
    for (const token of [null, 'wat_not-a-real-token', runtime.demo.apiKey, runtime.demo.orgToken]) {
      const response = await send(route, own, token);
      expect(response.status).toBe(401);
      expect(response.body).toEqual(expect.objectContaining({ status: false, message: 'Missing, invalid or expired access token' }));
      expect(response.body.error).toEqual(expect.objectContaining({ code: 401, fbtrace_id: expect.any(String) }));
    }
  });

  const kinds = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  if (kinds.length > 0) {
    it.each(kinds)(`answers 404 for another organization's %s`, async (name) => {
      const before = runtime.sandbox!.acceptedMessages().length;
      const response = await send(route, { ...own, [name]: foreign[name]! });
      expect(response.status).toBe(404);
      expect(response.body.status).toBe(false);
      expect(response.body.error).toEqual(expect.objectContaining({ type: 'NOT_CONNECTED', code: 404 }));
      expect(JSON.stringify(response.body)).not.toContain('Other Org');
      expect(runtime.sandbox!.acceptedMessages().length).toBe(before);
    });
  }
});

describe('when the Cloud API does not answer', () => {
  beforeAll(() => runtime.sandbox!.configure({ timeoutRate: 1, timeoutHoldMs: 1_500 }));
  afterAll(() => runtime.sandbox!.configure({ timeoutRate: 0 }));

  it('every route answers 502 after UPSTREAM_TIMEOUT_MS (a bulk send reports the recipient unknown)', async () => {
    const results: Array<[string, number, unknown]> = [];
    // A few at a time: each waits out the 300 ms timeout.
    for (let index = 0; index < rows.length; index += 8) {
      const batch = rows.slice(index, index + 8);
      const answers = await Promise.all(batch.map((route) => send(route, own)));
      batch.forEach((route, position) => results.push([route.operation, answers[position]!.status, answers[position]!.body]));
    }
    for (const [operation, status, body] of results) {
      if (operation === 'sendBulkTemplate') {
        expect([operation, status, (body as { summary: unknown }).summary]).toEqual([
          operation,
          200,
          { total: 1, sent: 0, failed: 0, unknown: 1, not_sent: 0 },
        ]);
        continue;
      }
      expect([operation, status]).toEqual([operation, 502]);
      expect((body as { message: string }).message).toBe('The WhatsApp Cloud API is unreachable or timed out; retry with backoff');
    }
  }, 50_000);
});
