/**
 * The webhook endpoint's source guard through the local runtime (real HTTP from 127.0.0.1, the
 * source address the local gateway puts in the proxy event as API Gateway does): an HTTP API takes no
 * WAF, so the function itself refuses a source after 10 refused POSTs a minute, and, when
 * META_WEBHOOK_SOURCE_RANGES is set, every address outside the ranges (docs/OPERATIONS.md "Front doors").
 */
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { getServices } from '../../../functions/composition';
import { signWebhookBody } from '../../../shared/meta-app/webhook-signature';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';

jest.setTimeout(120_000);

const path = '/hooks/meta/whatsapp';
const appSecret = 'source-guard-app-secret';
const batch = '{"object":"whatsapp_business_account","entry":[]}';
const signed = (secret = appSecret) => ({ 'X-Hub-Signature-256': signWebhookBody(batch, secret) });

async function configured(environment: Record<string, string> = {}): Promise<TestRuntime> {
  const runtime = await startTestRuntime({ seedDemo: false, startWorkers: false, environment });
  await getServices().metaApp.configure({ appSecret, verifyToken: 'source-guard-token' });
  return runtime;
}

const queued = async (runtime: TestRuntime) =>
  (await runtime.sqs.send(new ReceiveMessageCommand({ QueueUrl: runtime.queueUrls.metaEvents, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }))).Messages ?? [];

describe('a source whose POSTs keep failing the signature', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await configured();
  });
  afterAll(async () => runtime?.close());

  it('is heard 10 times a minute, then refused unheard (429 with Retry-After), even with a valid signature', async () => {
    const post = (headers: Record<string, string>) => runtime.call('POST', path, { rawBody: batch, headers });
    expect((await post(signed())).status).toBe(200);
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await post(signed('forged'))).status).toBe(401);
    const held = await post(signed());
    expect(held.status).toBe(429);
    expect(held.body.error.code).toBe('THROTTLED');
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(50);
    expect(await queued(runtime)).toHaveLength(1);
  });
});

describe('with META_WEBHOOK_SOURCE_RANGES set', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await configured({ META_WEBHOOK_SOURCE_RANGES: '157.240.0.0/16,2a03:2880::/32' });
  });
  afterAll(async () => runtime?.close());

  it('refuses a signed POST from an address outside them (403) and queues nothing', async () => {
    const answer = await runtime.call('POST', path, { rawBody: batch, headers: signed() });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('FORBIDDEN');
    expect(await queued(runtime)).toEqual([]);
  });
});
