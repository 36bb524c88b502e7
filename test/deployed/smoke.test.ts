/**
 * The smoke suite of every surface through the synthesized assembly (docs/TESTING.md "Proven as
 * deployed"): bundled assets, template environments, template tables/queues/gateway, and every
 * AWS call each function makes checked against its role policy.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { metaWebhookPath } from '../../local/local-runtime';
import { signWebhookBody } from '../../shared/meta-app/webhook-signature';
import { eventually, testEnvironment } from '../support/local-runtime';
import { assemblyDirectory } from './harness/assembly-location';
import { readCloudAssembly } from './harness/cloud-assembly';
import { startDeployedRuntime, type DeployedRuntime } from './harness/deployed-runtime';
import { deployedScheduleMinLeadSeconds } from './harness/synthesize';
import { scheduleNameOf } from '../../shared/adapters/scheduler/eventbridge-job-firing-scheduler';
import { adminCommands } from '../../shared/tenancy/admin-commands';
import { getServices } from '../../functions/composition';
import { GetQueueAttributesCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { encodeOutboundMessage } from '../../shared/broadcast/chunk-message';
import { getJobStatus } from '../../shared/broadcast/get-job-status';

jest.setTimeout(180_000);

const BASE = '/prod/api/v2/broadcast/public';
let runtime: DeployedRuntime;

async function call(method: string, path: string, options: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {}) {
  const response = await fetch(`${runtime.baseUrl}${path}`, {
    method,
    headers: { ...(options.body !== undefined || options.rawBody !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body };
}

beforeAll(async () => {
  runtime = await startDeployedRuntime({ assembly: readCloudAssembly(assemblyDirectory), environment: testEnvironment });
}, 120_000);
afterAll(async () => {
  // What each function called, for narrowing grants to the calls that happen (docs/TESTING.md).
  if (runtime) writeFileSync(join(assemblyDirectory, '..', 'iam-usage.json'), `${JSON.stringify(runtime.ledger.usage(), null, 2)}\n`);
  await runtime?.stop();
});

const key = () => ({ 'x-api-key': runtime.demo.apiKey });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const UPSTREAM = '/staging/api/v2/upstream';
const acceptedTo = (to: string) => runtime.sandbox.acceptedMessages().filter((message) => message.recipient === to);
let broadcastJobId = '';

describe('every surface through the bundles', () => {
  it('docs: the document, the page and the renderer files copied next to the docs bundle', async () => {
    const document = await call('GET', '/docs/openapi.json');
    expect(document.status).toBe(200);
    expect(document.body).toMatchObject({ openapi: '3.1.0' });
    const page = await call('GET', '/docs');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const script = await call('GET', '/docs/assets/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(String(script.body)).toContain('SwaggerUIBundle');
  });

  it('console: the page with its policy, and the files esbuild built next to the console bundle (Chart.js inside, no CDN)', async () => {
    const page = await call('GET', '/prod/api/v2/console/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(String(page.body)).toContain('/prod/api/v2/console/assets/console.js');
    const script = await call('GET', '/prod/api/v2/console/assets/console.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(String(script.body)).toMatch(/Chart\.js/);
    // No script host: Chart.js is inside. (Example links of the request schemas the builder's preview
    // shares with the server, https://cdn.example.com/…, are data, never loaded; the browser suites
    // check that no request leaves the service's own origin and its identity provider.)
    expect(String(script.body)).not.toMatch(/https?:\/\/(cdn\.jsdelivr\.net|unpkg\.com|cdnjs\.cloudflare\.com|esm\.sh)/);
    expect((await call('GET', '/prod/api/v2/console/assets/console.css')).status).toBe(200);
    const reasons = await call('GET', '/prod/api/v2/console/assets/failure-codes.json');
    expect(reasons.body).toEqual(expect.arrayContaining([expect.objectContaining({ code: '131049' })]));
    expect((await call('GET', '/prod/api/v2/console/assets/console.lambda.mjs')).status).toBe(404);
  });

  it('health: no key, from the health bundle', async () => {
    const response = await call('GET', `${BASE}/health`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', version: '2.0.0' });
  });

  it('the gateway checks API keys as the template methods require them', async () => {
    expect((await call('GET', `${BASE}/phone-numbers`, { headers: { 'x-api-key': 'bk_unknown' } })).status).toBe(401);
    expect((await call('GET', `${BASE}/phone-numbers`)).status).toBe(401);
    const numbers = await call('GET', `${BASE}/phone-numbers`, { headers: key() });
    expect(numbers.status).toBe(200);
    expect(JSON.stringify(numbers.body)).toContain(runtime.demo.phoneNumbers[0]);
    expect((await call('GET', `${BASE}/no-such-route`, { headers: key() })).status).toBe(404);
  });

  it('a 1,001-recipient broadcast runs to completion through the outbound queue and the chunk-worker bundle', async () => {
    const from = runtime.demo.phoneNumbers[0]!;
    const data = Array.from({ length: 1001 }, (_, index) => ({
      countryCode: '91',
      toPhoneNumber: String(9100000000 + index),
      templateParams: [`N${index}`, `O${index}`],
    }));
    const accepted = await call('POST', `${BASE}/send-template-broadcast`, {
      headers: { ...key(), 'Idempotency-Key': 'deployed-smoke-1' },
      body: { broadcastName: 'deployed-smoke', fromPhoneNumber: from, templateName: 'order_update', templateLanguage: 'en_US', templateType: 'UTILITY', data },
    });
    expect(accepted.status).toBe(202);
    broadcastJobId = accepted.body.data.jobId;
    const final = await eventually(
      () => call('GET', `${BASE}/status/${broadcastJobId}`, { headers: key() }),
      (response) => ['COMPLETED', 'COMPLETED_WITH_FAILURES', 'FAILED'].includes(response.body?.data?.status),
      120_000,
      250,
    );
    expect(final.body.data).toMatchObject({ status: 'COMPLETED', totalRecipients: 1001, summary: { sent: 1001, failed: 0, unknown: 0, pending: 0 } });
    expect(runtime.sandbox.acceptedMessages().filter((message) => message.recipient.startsWith('91910000'))).toHaveLength(1001);
  });

  it('a chunk message put on the outbound dead-letter queue is received by the chunk-dead-letters bundle through its mapping and settled (here: nothing left to settle)', async () => {
    const job = (await getServices().broadcast.broadcasts.getJob(broadcastJobId))!;
    const deadLetterQueueUrl = runtime.environments['chunk-dead-letters']!.OUTBOUND_DEAD_LETTER_QUEUE_URL!;
    const body = encodeOutboundMessage({
      kind: 'template-chunk',
      version: 1,
      jobId: job.jobId,
      organizationId: job.organizationId,
      chunkIndex: 0,
      wabaId: job.wabaId,
      phoneNumberId: job.phoneNumberId,
      template: { name: 'order_update', language: 'en_US' },
      recipients: [0, 1, 2].map((index) => ({ index, to: `91${9100000000 + index}`, parameters: [`N${index}`, `O${index}`] })),
    });
    // Straight to the emulator (the operators' side), as SQS's redrive would put it there.
    await getServices().clients.sqs.send(new SendMessageCommand({ QueueUrl: deadLetterQueueUrl, MessageBody: body }));
    const depth = async () => {
      const { Attributes = {} } = await getServices().clients.sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: deadLetterQueueUrl,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      return Number(Attributes.ApproximateNumberOfMessages ?? 0) + Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0);
    };
    await eventually(depth, (count) => count === 0, 60_000, 250);
    expect(runtime.ledger.calls.some((entry) => entry.functionName === 'chunk-dead-letters')).toBe(true);
    // Everyone of the chunk was already sent: the settling skipped them all and the job reads as before.
    // Read through the use case: the demo key's status budget went on polling the broadcast above.
    const status = await getJobStatus(getServices().broadcast.broadcasts, { organizationId: job.organizationId }, broadcastJobId);
    expect(status).toMatchObject({ status: 'COMPLETED', summary: { sent: 1001, failed: 0, unknown: 0, pending: 0 } });
  });

  it('the webhook endpoint takes a signed POST and the delivery-events bundle applies it', async () => {
    const [message] = acceptedTo('919100000000');
    expect(message).toBeDefined();
    const raw = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: runtime.demo.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: runtime.demo.phoneNumbers[0], phone_number_id: message!.phoneNumberId },
                statuses: [{ id: message!.messageId, status: 'delivered', timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: message!.recipient }],
              },
            },
          ],
        },
      ],
    });
    expect((await call('POST', metaWebhookPath, { rawBody: raw, headers: { 'x-hub-signature-256': 'sha256=00' } })).status).toBe(401);
    const answer = await call('POST', metaWebhookPath, { rawBody: raw, headers: { 'x-hub-signature-256': signWebhookBody(raw, runtime.demo.metaAppSecret) } });
    expect(answer.status).toBe(200);
    const status = await eventually(
      () => call('GET', `${BASE}/status/${broadcastJobId}`, { headers: key() }),
      (response) => response.body?.data?.summary?.delivered === 1,
      30_000,
      250,
    );
    expect(status.body.data.summary).toMatchObject({ delivered: 1 });
  });

  it('free-form: a text message is queued and sent upstream', async () => {
    const to = '919200000001';
    const response = await call('POST', `${BASE}/send-freeform`, {
      headers: key(),
      body: { fromPhoneNumber: runtime.demo.phoneNumbers[0], toPhoneNumber: to, type: 'text', text: 'Hello from the bundles' },
    });
    expect(response.status).toBe(200);
    const [message] = await eventually(
      () => Promise.resolve(acceptedTo(to)),
      (messages) => messages.length > 0,
      30_000,
    );
    expect(message!.body).toMatchObject({ type: 'text', text: { body: 'Hello from the bundles' } });
  });

  it('generate-key registers the key with API Gateway (usage plan) and send-single sends with it', async () => {
    const generated = await call('POST', `${BASE}/generate-key`, { body: { phoneNumber: runtime.demo.phoneNumbers[1] } });
    expect(generated.status).toBe(200);
    const apiKey: string = generated.body.data.apiKey;
    const single = await call('POST', `${BASE}/send-single`, {
      headers: { 'x-api-key': apiKey },
      body: {
        templateName: 'order_update',
        templateLanguage: 'en_US',
        templateType: 'UTILITY',
        countryCode: '44',
        toPhoneNumber: '7700900555',
        templateParams: ['Ada', 'A-1'],
      },
    });
    expect(single.status).toBe(200);
    await eventually(
      () => Promise.resolve(acceptedTo('447700900555')),
      (messages) => messages.length > 0,
      30_000,
    );
    // The generated key is a usage-plan key now: the gateway admits it on a key-checked method.
    expect((await call('GET', `${BASE}/status/${broadcastJobId}`, { headers: { 'x-api-key': apiKey } })).status).not.toBe(401);
  });

  it('remove-employee-bulk (organization surface)', async () => {
    const [removed] = runtime.demo.employees.slice(-1);
    const response = await call('POST', '/v2/organizations/public/remove-employee-bulk', {
      headers: bearer(runtime.demo.orgToken),
      body: { emails: [removed, 'nobody@demo-retail.example'] },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ removedEmails: [removed], notFoundEmails: ['nobody@demo-retail.example'] });
  });

  it('v1: a contact is created and listed', async () => {
    const v1 = bearer(runtime.demo.otherOrg.v1ApiKey);
    const created = await call('POST', '/v1/contacts', { headers: v1, body: { phoneNumber: '447700900123', name: 'Ada Lovelace', tags: ['vip'] } });
    expect(created.status).toBe(201);
    const listed = await call('GET', '/v1/contacts?tag=vip', { headers: v1 });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ success: true, meta: { total: 1 } });
  });

  it('/upstream: phone numbers, a business profile and a message through the wrapper bundle', async () => {
    const auth = bearer(runtime.demo.accessToken);
    const phoneNumberId = runtime.demo.phoneNumberIds[0]!;
    const numbers = await call('GET', `${UPSTREAM}/phone-numbers`, { headers: auth });
    expect(numbers.status).toBe(200);
    expect(JSON.stringify(numbers.body)).toContain(phoneNumberId);
    const profile = await call('GET', `${UPSTREAM}/phone-numbers/${phoneNumberId}/business-profile?fields=about,vertical`, { headers: auth });
    expect(profile.status).toBe(200);
    const sent = await call('POST', `${UPSTREAM}/phone-numbers/${phoneNumberId}/messages`, {
      headers: auth,
      body: { to: '15551234567', type: 'text', text: { body: 'Hello' } },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ messages: [{ id: expect.any(String) }] });
  });
});

describe('scheduled broadcasts: EventBridge Scheduler one-time schedules and the sweep rule', () => {
  // A key of its own: the demo key's status budget (30 a minute) went on polling the broadcast above.
  let scheduleKey = '';
  beforeAll(async () => {
    scheduleKey = (await adminCommands['issue-broadcast-key'].run(getServices().tenancy, { org: runtime.demo.organizationId })).secret;
  });
  const key = () => ({ 'x-api-key': scheduleKey });
  const scheduled = (idempotencyKey: string, first: number, scheduledAt: string) =>
    call('POST', `${BASE}/send-template-broadcast`, {
      headers: { ...key(), 'Idempotency-Key': idempotencyKey },
      body: {
        broadcastName: idempotencyKey,
        fromPhoneNumber: runtime.demo.phoneNumbers[0],
        templateName: 'order_update',
        templateLanguage: 'en_US',
        templateType: 'UTILITY',
        scheduledAt,
        data: Array.from({ length: 3 }, (_, index) => ({
          countryCode: '91',
          toPhoneNumber: String(first + index),
          templateParams: [`N${index}`, `O${index}`],
        })),
      },
    });
  const scheduleOf = (jobId: string) => runtime.scheduler.schedules().find((schedule) => schedule.name === scheduleNameOf(jobId));
  const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

  it('the assembly carries the small minimum lead this run was synthesized with, and the sweep rule invokes broadcast-scheduler', () => {
    expect(runtime.environments['broadcast-send']!.BROADCAST_SCHEDULE_MIN_LEAD_SECONDS).toBe(String(deployedScheduleMinLeadSeconds));
    expect(runtime.rules.targets).toEqual([expect.stringMatching(/→ broadcast-scheduler$/)]);
  });

  it('accepted 202 SCHEDULED, a one-time schedule is created, fires the job through the invoke role and is deleted; the job completes', async () => {
    const accepted = await scheduled('deployed-scheduled-1', 9130000000, inSeconds(3));
    expect(accepted.status).toBe(202);
    const jobId: string = accepted.body.data.jobId;
    expect(accepted.body.data).toMatchObject({ jobId, status: 'SCHEDULED', totalRecipients: 3 });
    const schedule = scheduleOf(jobId);
    expect(schedule).toMatchObject({
      groupName: runtime.environments['broadcast-send']!.BROADCAST_SCHEDULE_GROUP,
      actionAfterCompletion: 'DELETE',
      target: {
        Arn: runtime.environments['broadcast-send']!.BROADCAST_SCHEDULER_TARGET_ARN,
        RoleArn: runtime.environments['broadcast-send']!.BROADCAST_SCHEDULER_ROLE_ARN,
        Input: JSON.stringify({ jobId }),
      },
    });
    const final = await eventually(
      () => call('GET', `${BASE}/status/${jobId}`, { headers: key() }),
      (response) => ['COMPLETED', 'COMPLETED_WITH_FAILURES', 'FAILED'].includes(response.body?.data?.status),
      60_000,
      250,
    );
    expect(final.body.data).toMatchObject({ status: 'COMPLETED', summary: { sent: 3, failed: 0, pending: 0 } });
    expect(runtime.sandbox.acceptedMessages().filter((message) => message.recipient.startsWith('9191300000'))).toHaveLength(3);
    // Fired by its schedule (not the sweep: its grace is 30 s), which deleted itself afterwards.
    expect(runtime.scheduler.firings()).toEqual(
      expect.arrayContaining([expect.objectContaining({ schedule: expect.objectContaining({ name: scheduleNameOf(jobId) }), outcome: 'invoked' })]),
    );
    await eventually(
      () => Promise.resolve(scheduleOf(jobId)),
      (found) => found === undefined,
      5_000,
    );
  });

  it('cancelled before its time: CANCELLED at once and its schedule deleted, so nothing fires', async () => {
    const accepted = await scheduled('deployed-scheduled-2', 9140000000, inSeconds(3600));
    expect(accepted.status).toBe(202);
    const jobId: string = accepted.body.data.jobId;
    expect(scheduleOf(jobId)).toBeDefined();
    const cancelled = await call('POST', `${BASE}/broadcasts/${jobId}/cancel`, { headers: key() });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ jobId, status: 'CANCELLED' });
    expect(scheduleOf(jobId)).toBeUndefined();
    const status = await call('GET', `${BASE}/status/${jobId}`, { headers: key() });
    expect(status.body.data).toMatchObject({ status: 'CANCELLED' });
    expect(runtime.scheduler.firings().some((firing) => firing.schedule.name === scheduleNameOf(jobId))).toBe(false);
  });
});

describe('IAM checked by use', () => {
  it('every AWS call of every function was allowed by its role policy in the template', async () => {
    await runtime.workersIdle();
    const callers = new Set(runtime.ledger.calls.map((call) => call.functionName));
    for (const name of [
      'broadcast-send',
      'chunk-worker',
      'chunk-dead-letters',
      'meta-webhook',
      'delivery-events',
      'broadcast-keys',
      'upstream-wrapper',
      'v1-inbox',
      'organization-admin',
      'broadcast-scheduler',
    ])
      expect(callers).toContain(name);
    // The services' own invocations: the schedule's role assumed and allowed to invoke, the rule's resource policy.
    const actions = new Set(runtime.ledger.calls.map((call) => call.action));
    for (const action of ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'sts:AssumeRole', 'lambda:InvokeFunction']) expect(actions).toContain(action);
    expect(runtime.ledger.describeViolations()).toEqual([]);
    expect(runtime.rules.failures).toEqual([]);
  });
});
