/**
 * The smoke steps of every surface, over HTTP only (fetch), against any deployment: the local
 * runtime, LocalStack or an AWS stage. Each step checks what a caller can see and fails with the
 * reason. docs/TESTING.md "Smoke against a deployed URL".
 */
import { createHmac } from 'node:crypto';
import { TERMINAL_STATUSES } from '../../shared/broadcast/broadcast-job';
import type { SmokeConfig } from './smoke-config';

export interface SmokeResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answer's JSON as parsed: each step reads the fields it checks
  body: any;
  text: string;
}

export class SmokeStepError extends Error {}

export interface SmokeStep {
  name: string;
  /** Resolves with a short detail on success; throws `SmokeStepError` (or any error) with the reason. */
  run(config: SmokeConfig): Promise<string>;
}

export interface SmokeResult {
  name: string;
  passed: boolean;
  detail: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function call(method: string, url: string, options: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {}): Promise<SmokeResponse> {
  const hasBody = options.body !== undefined || options.rawBody !== undefined;
  const response = await fetch(url, {
    method,
    headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body, text };
}

function expectStatus(response: SmokeResponse, expected: number, what: string): void {
  if (response.status !== expected) throw new SmokeStepError(`${what}: expected ${expected}, got ${response.status} ${response.text.slice(0, 300)}`);
}

function check(condition: boolean, reason: string): void {
  if (!condition) throw new SmokeStepError(reason);
}

const broadcastUrl = (config: SmokeConfig, path: string) => `${config.urls.broadcast}/broadcast/public${path}`;
const keyHeader = (config: SmokeConfig) => ({ 'x-api-key': config.apiKey });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Polls a key-limited route: a 429 waits its Retry-After instead of failing. */
async function pollStatus(config: SmokeConfig, jobId: string): Promise<SmokeResponse> {
  const deadline = Date.now() + config.broadcastTimeoutMs;
  let last: SmokeResponse | undefined;
  while (Date.now() < deadline) {
    last = await call('GET', broadcastUrl(config, `/status/${jobId}`), { headers: keyHeader(config) });
    if (last.status === 429) {
      await sleep(Math.max(1, Number(last.headers.get('retry-after') ?? 1)) * 1000);
      continue;
    }
    expectStatus(last, 200, `GET status/${jobId}`);
    if (TERMINAL_STATUSES.has(last.body?.data?.status)) return last;
    await sleep(config.pollIntervalMs);
  }
  throw new SmokeStepError(
    `job ${jobId} not finished within ${config.broadcastTimeoutMs} ms; last status ${JSON.stringify(last?.body?.data ?? last?.text).slice(0, 300)}`,
  );
}

export const smokeSteps: readonly SmokeStep[] = [
  {
    name: 'health',
    run: async (config) => {
      const response = await call('GET', broadcastUrl(config, '/health'));
      expectStatus(response, 200, 'GET health');
      check(response.body?.status === 'ok', `GET health: status is ${JSON.stringify(response.body?.status)}, not "ok"`);
      return `version ${response.body.version}`;
    },
  },
  {
    name: `template broadcast to completion`,
    run: async (config) => {
      const first = 9_100_000_000 + Math.floor(Math.random() * 800_000_000);
      const data = Array.from({ length: config.recipientCount }, (_, index) => ({
        countryCode: config.countryCode,
        toPhoneNumber: String(first + index),
        templateParams: config.template.parameters,
      }));
      const accepted = await call('POST', broadcastUrl(config, '/send-template-broadcast'), {
        headers: { ...keyHeader(config), 'Idempotency-Key': `smoke-${config.runId}` },
        body: {
          broadcastName: `smoke-${config.runId}`,
          fromPhoneNumber: config.fromPhoneNumber,
          templateName: config.template.name,
          templateLanguage: config.template.language,
          templateType: config.template.category,
          data,
        },
      });
      const jobId: string | undefined = accepted.body?.data?.jobId ?? accepted.headers.get('x-broadcast-job-id') ?? undefined;
      check(
        accepted.status === 200 || accepted.status === 202,
        `POST send-template-broadcast: expected 202 (or 200 for ≤ 1,000), got ${accepted.status} ${accepted.text.slice(0, 300)}`,
      );
      check(typeof jobId === 'string', `POST send-template-broadcast: no job id in the answer or X-Broadcast-Job-Id`);
      const final = (await pollStatus(config, jobId!)).body.data;
      check(final.status === 'COMPLETED', `job ${jobId} ended ${final.status}: ${JSON.stringify(final.summary)}`);
      check(final.totalRecipients === config.recipientCount, `job ${jobId}: totalRecipients ${final.totalRecipients}, sent ${config.recipientCount}`);
      check(final.summary?.failed === 0 && final.summary?.pending === 0, `job ${jobId}: summary ${JSON.stringify(final.summary)}`);
      return `job ${jobId} COMPLETED, ${config.recipientCount} recipients`;
    },
  },
  {
    name: 'free-form text',
    run: async (config) => {
      const response = await call('POST', broadcastUrl(config, '/send-freeform'), {
        headers: keyHeader(config),
        body: { fromPhoneNumber: config.fromPhoneNumber, toPhoneNumber: `${config.countryCode}9200000001`, type: 'text', text: `smoke ${config.runId}` },
      });
      expectStatus(response, 200, 'POST send-freeform');
      return 'queued';
    },
  },
  {
    name: 'send-single',
    run: async (config) => {
      const response = await call('POST', broadcastUrl(config, '/send-single'), {
        headers: keyHeader(config),
        body: {
          templateName: config.template.name,
          templateLanguage: config.template.language,
          templateType: config.template.category,
          countryCode: config.countryCode,
          toPhoneNumber: '9300000001',
          templateParams: config.template.parameters,
        },
      });
      expectStatus(response, 200, 'POST send-single');
      return response.body?.message ?? 'queued';
    },
  },
  {
    name: 'remove-employee-bulk',
    run: async (config) => {
      const unknown = `nobody-${config.runId}@smoke.invalid`;
      const response = await call('POST', `${config.urls.organization}/organizations/public/remove-employee-bulk`, {
        headers: bearer(config.orgToken),
        body: { emails: [config.employeeEmail, unknown] },
      });
      expectStatus(response, 200, 'POST remove-employee-bulk');
      const { removedEmails = [], notFoundEmails = [] } = response.body?.data ?? {};
      check(notFoundEmails.includes(unknown), `remove-employee-bulk: ${unknown} not reported as not found: ${response.text.slice(0, 300)}`);
      // Removed on the first run, not found on later ones: either is the answer of a working endpoint.
      check(
        removedEmails.includes(config.employeeEmail) || notFoundEmails.includes(config.employeeEmail),
        `remove-employee-bulk: ${config.employeeEmail} neither removed nor not found`,
      );
      return removedEmails.includes(config.employeeEmail) ? `${config.employeeEmail} removed` : `${config.employeeEmail} was already gone`;
    },
  },
  {
    name: 'v1 contact created and read',
    run: async (config) => {
      const phoneNumber = `4477009${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}`;
      const created = await call('POST', `${config.urls.v1}/contacts`, {
        headers: bearer(config.v1ApiKey),
        body: { phoneNumber, name: `Smoke ${config.runId}`, tags: ['smoke'] },
      });
      expectStatus(created, 201, 'POST v1/contacts');
      const contactId: string = created.body?.data?.id;
      check(typeof contactId === 'string', `POST v1/contacts: no data.id in ${created.text.slice(0, 300)}`);
      const read = await call('GET', `${config.urls.v1}/contacts/${contactId}`, { headers: bearer(config.v1ApiKey) });
      expectStatus(read, 200, `GET v1/contacts/${contactId}`);
      check(read.body?.data?.phoneNumber === phoneNumber, `GET v1/contacts/${contactId}: phoneNumber ${read.body?.data?.phoneNumber}`);
      return contactId;
    },
  },
  {
    name: '/upstream: phone numbers, business profile, templates',
    run: async (config) => {
      const upstream = `${config.urls.upstream}/upstream`;
      const auth = bearer(config.accessToken);
      const numbers = await call('GET', `${upstream}/phone-numbers`, { headers: auth });
      expectStatus(numbers, 200, 'GET upstream/phone-numbers');
      check(numbers.text.includes(config.phoneNumberId), `GET upstream/phone-numbers: ${config.phoneNumberId} not listed`);
      const profile = await call('GET', `${upstream}/phone-numbers/${config.phoneNumberId}/business-profile?fields=about,vertical`, { headers: auth });
      expectStatus(profile, 200, 'GET upstream/.../business-profile');
      const templates = await call('GET', `${upstream}/wabas/${config.wabaId}/templates?fields=name,language,status`, { headers: auth });
      expectStatus(templates, 200, 'GET upstream/wabas/.../templates');
      check(templates.text.includes(config.template.name), `GET upstream/wabas/${config.wabaId}/templates: ${config.template.name} not listed`);
      return '3 routes';
    },
  },
  {
    name: 'Meta webhook endpoint',
    run: async (config) => {
      const endpoint = `${config.urls.webhooks}/meta/whatsapp`;
      const handshake = (token: string, challenge: string) =>
        call('GET', `${endpoint}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=${challenge}`);
      expectStatus(await handshake(`wrong-${config.runId}`, '1'), 403, 'GET handshake with a wrong verify token');
      expectStatus(await call('POST', endpoint, { rawBody: '{"object":"whatsapp_business_account","entry":[]}' }), 401, 'POST without a signature');
      const checked = ['unsigned POST and wrong token refused'];
      if (config.webhookVerifyToken !== undefined) {
        const challenge = String(Math.floor(Math.random() * 1e9));
        const answer = await handshake(config.webhookVerifyToken, challenge);
        expectStatus(answer, 200, 'GET handshake with the verify token');
        check(answer.text === challenge, `GET handshake: answered ${JSON.stringify(answer.text.slice(0, 100))}, not the challenge`);
        checked.unshift('handshake answered');
      }
      if (config.metaAppSecret !== undefined) {
        // A status for a message id nobody sent: the endpoint's job is to check the signature and queue it (200);
        // the processor then finds no record for it and changes nothing.
        const rawBody = JSON.stringify(smokeStatusEvent(config));
        const signature = `sha256=${createHmac('sha256', config.metaAppSecret).update(rawBody).digest('hex')}`;
        expectStatus(await call('POST', endpoint, { rawBody, headers: { 'x-hub-signature-256': signature } }), 200, 'POST of a signed status event');
        checked.push('a signed status event queued');
      }
      return checked.length === 1 ? `${checked[0]} (no verify token or app secret given: handshake and signed event not checked)` : checked.join('; ');
    },
  },
];

/** A `delivered` status in Meta's shape for a message id of this run that was never sent. */
function smokeStatusEvent(config: SmokeConfig): unknown {
  const status = {
    id: `wamid.smoke-${config.runId}`,
    status: 'delivered',
    timestamp: String(Math.floor(Date.now() / 1000)),
    recipient_id: `${config.countryCode}9000000000`,
  };
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: config.fromPhoneNumber, phone_number_id: config.phoneNumberId },
    statuses: [status],
  };
  return { object: 'whatsapp_business_account', entry: [{ id: config.wabaId, changes: [{ field: 'messages', value }] }] };
}

/** Runs every step in order (a failure does not stop the rest), reporting each as it ends. */
export async function runSmoke(
  config: SmokeConfig,
  report: (result: SmokeResult) => void = () => undefined,
  steps: readonly SmokeStep[] = smokeSteps,
): Promise<SmokeResult[]> {
  const results: SmokeResult[] = [];
  for (const step of steps) {
    let result: SmokeResult;
    try {
      result = { name: step.name, passed: true, detail: await step.run(config) };
    } catch (error) {
      result = { name: step.name, passed: false, detail: error instanceof Error ? error.message : String(error) };
    }
    results.push(result);
    report(result);
  }
  return results;
}
