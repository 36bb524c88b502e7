/**
 * The ready request files of `examples/` (used by the README's commands): each is valid for its
 * request schema and the demo tenant, and gets the answer the README promises from the local runtime.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { templateBroadcastSchema } from '../../../shared/broadcast/template-broadcast.schema';
import { freeformMessageSchema } from '../../../shared/broadcast/freeform-message.schema';
import { sendBulkSchema, sendSingleSchema } from '../../../shared/broadcast/earlier-template-send.schema';
import { demoIds } from '../../../local/demo-tenant';
import { carouselSchema } from '../../../shared/templates/template-content.schema';
import { rateCardSchema } from '../../../shared/pricing/rate-card';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';

const examples = join(__dirname, '../../../examples');
const read = (name: string): unknown => JSON.parse(readFileSync(join(examples, name), 'utf8'));
const broadcastPath = '/prod/api/v2/broadcast/public';

const schemas: Record<string, v.GenericSchema> = {
  'broadcast-1-recipient.json': templateBroadcastSchema,
  'broadcast-2-recipients.json': templateBroadcastSchema,
  'broadcast-1001-recipients.json': templateBroadcastSchema,
  'freeform-text.json': freeformMessageSchema,
  'send-single.json': sendSingleSchema,
  'send-bulk.json': sendBulkSchema,
  'generate-key.json': v.object({ phoneNumber: v.string() }),
  'migrate-templates.json': v.object({ sourceWabaId: v.string(), pageNumber: v.number() }),
  // The CSV CLI's --carousel-file (docs/BROADCAST-CLI.md): the request's `carousel` field as written.
  'carousel-cards.json': carouselSchema,
  // The operator's rate card (`set-rate-card --file`, docs/OPERATIONS.md "Rate card"): example values.
  'rate-card.json': rateCardSchema,
};

let runtime: TestRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime({ startWorkers: false });
});
afterAll(async () => runtime?.stop());
jest.setTimeout(60_000);

it('every JSON file has a schema here and is valid for it', () => {
  const files = readdirSync(examples)
    .filter((name) => name.endsWith('.json'))
    .sort();
  expect(files).toEqual(Object.keys(schemas).sort());
  for (const file of files) expect([file, v.safeParse(schemas[file]!, read(file)).issues]).toEqual([file, undefined]);
});

it('uses the demo tenant: its first sender, an APPROVED template with as many parameters as it has placeholders', () => {
  for (const file of [
    'broadcast-1-recipient.json',
    'broadcast-2-recipients.json',
    'broadcast-1001-recipients.json',
    'freeform-text.json',
    'generate-key.json',
  ]) {
    const body = read(file) as { fromPhoneNumber?: string; phoneNumber?: string };
    expect(body.fromPhoneNumber ?? body.phoneNumber).toBe(demoIds.senders[0]);
  }
  const template = runtime.demo.templates.find((candidate) => candidate.name === 'order_update')!;
  expect(template.status).toBe('APPROVED');
  for (const file of ['broadcast-1-recipient.json', 'broadcast-1001-recipients.json', 'send-single.json', 'send-bulk.json']) {
    const body = read(file) as { templateName: string; templateLanguage: string; globalTemplateParams?: string[]; templateParams?: string[] };
    expect([body.templateName, body.templateLanguage]).toEqual([template.name, template.language]);
    expect((body.globalTemplateParams ?? body.templateParams)!).toHaveLength(template.placeholders);
  }
  expect((read('broadcast-1001-recipients.json') as { data: unknown[] }).data).toHaveLength(1001);
  expect((read('migrate-templates.json') as { sourceWabaId: string }).sourceWabaId).toBe(runtime.demo.secondWabaId);
});

const send = (path: string, file: string, idempotencyKey?: string) =>
  runtime.call('POST', `${broadcastPath}${path}`, {
    headers: { 'x-api-key': runtime.demo.apiKey, ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}) },
    body: read(file),
  });

it('a broadcast to 1 recipient answers 200 "queued for 1 recipient"; to 2, "2 recipients"', async () => {
  const one = await send('/send-template-broadcast', 'broadcast-1-recipient.json', 'examples-1');
  expect([one.status, one.body.message]).toEqual([200, 'Bulk broadcast queued for 1 recipient']);
  const two = await send('/send-template-broadcast', 'broadcast-2-recipients.json', 'examples-2');
  expect([two.status, two.body.message]).toEqual([200, 'Bulk broadcast queued for 2 recipients']);
});

it('the 1,001-recipient broadcast answers 202 with a job id to poll', async () => {
  const accepted = await send('/send-template-broadcast', 'broadcast-1001-recipients.json', 'examples-1001');
  expect(accepted.status).toBe(202);
  const status = await runtime.call('GET', `${broadcastPath}/status/${accepted.body.data.jobId}`, { headers: { 'x-api-key': runtime.demo.apiKey } });
  expect(status.status).toBe(200);
  expect(status.body.data.totalRecipients).toBe(1001);
});

it('send-single and send-bulk are accepted for the demo key', async () => {
  const single = await send('/send-single', 'send-single.json');
  expect([single.status, single.body.message]).toEqual([200, 'Message queued successfully']);
  const bulk = await send('/send-bulk', 'send-bulk.json');
  expect(bulk.status).toBe(200);
});

describe('/upstream', () => {
  const upstream = '/staging/api/v2/upstream';
  const auth = () => ({ Authorization: `Bearer ${runtime.demo.accessToken}` });

  it("migrates the templates of the demo business's second account", async () => {
    const migrated = await runtime.call('POST', `${upstream}/wabas/${runtime.demo.wabaId}/templates/migrate`, {
      headers: auth(),
      body: read('migrate-templates.json'),
    });
    expect(migrated.status).toBe(200);
    expect(migrated.body.migrated_templates.map((template: { name: string }) => template.name).sort()).toEqual(['back_in_stock', 'pickup_ready']);
  });

  it('uploads examples/logo.png as media', async () => {
    const form = new FormData();
    form.append('file', new Blob([readFileSync(join(examples, 'logo.png'))], { type: 'image/png' }), 'logo.png');
    const response = await fetch(`${runtime.baseUrl}${upstream}/phone-numbers/${runtime.demo.phoneNumberIds[0]}/media`, {
      method: 'POST',
      headers: auth(),
      body: form,
    });
    expect(response.status).toBe(200);
    expect(typeof ((await response.json()) as { id?: unknown }).id).toBe('string');
  });
});

it('the README has a command beside every request file: each is posted with `-d @examples/<file>`', () => {
  const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');
  const posted = new Set([...readme.matchAll(/-d @examples\/([\w.-]+\.json)/g)].map((match) => match[1]));
  // The two that are not request bodies are files for the CLIs (--carousel-file, set-rate-card --file).
  const requestFiles = readdirSync(examples).filter((name) => name.endsWith('.json') && !['carousel-cards.json', 'rate-card.json'].includes(name));
  expect(requestFiles.filter((file) => !posted.has(file))).toEqual([]);
});

it('the README lists every key of demo.json', () => {
  const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');
  const listed = /credentials are written to `\.local\/demo\.json` \(([^)]*)\)/.exec(readme)?.[1] ?? '';
  const keys = [...listed.matchAll(/`(\w+)`/g)].map((match) => match[1]).filter((key) => key !== 'otherOrg');
  expect(keys.sort()).toEqual(
    Object.keys(runtime.demo)
      .filter((key) => key !== 'otherOrg')
      .sort(),
  );
});
