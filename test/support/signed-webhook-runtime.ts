/**
 * The inbound suites' common setup: the local runtime with the sandbox's signed webhooks on and
 * delivered at once (no delays, reads, duplicates or reordering), a broadcast key of the demo
 * organization, and the calls those suites make (the sandbox's control API, the v1 API with the demo
 * v1 key, waiting until every webhook is applied, the opt-out list, what the sandbox sent a recipient).
 */
import { startTestRuntime, type TestResponse, type TestRuntime } from './local-runtime';
import { callSandbox } from './sandbox-control';
import { BASE, issueKey, keyHeader, kitEnvironment, orderUpdate, waitForTerminal } from '../integration/broadcast/broadcast-test-kit';

/** One recipient's row of the recipients list. */
export type RecipientRow = { toPhoneNumber: string; userId?: string; status: string; failureReasonCode: string | null };

export interface SignedWebhookRuntime {
  readonly runtime: TestRuntime;
  /** A broadcast API key of the demo organization. */
  readonly key: string;
  sandbox(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  v1(method: string, path: string, body?: unknown): Promise<TestResponse>;
  /** Waits until the workers are idle, every sandbox webhook is delivered, and what they queued is applied. */
  settle(): Promise<void>;
  /** The demo organization's opt-out list (first 100). */
  optOuts(): Promise<Array<Record<string, unknown>>>;
  /** How many messages the sandbox accepted for a recipient (a number or a BSUID). */
  sentTo(recipient: string): Promise<number>;
  /** A MARKETING template broadcast (spring_sale) to the recipient and a bystander, waited for: the recipient's row. */
  marketingRow(recipient: Record<string, unknown>): Promise<RecipientRow>;
}

/**
 * Registers the suite's `beforeAll` / `afterAll` and returns the handle its tests use once started.
 *
 * @example
 * const kit = useSignedWebhookRuntime();
 * it('records a STOP', async () => { await kit.sandbox('POST', '/webhooks/inbound', { … }); await kit.settle(); });
 */
export function useSignedWebhookRuntime(): SignedWebhookRuntime {
  let runtime: TestRuntime | undefined;
  let key: string | undefined;
  const started = () => {
    if (!runtime || key === undefined) throw new Error('the signed-webhook runtime is used before beforeAll started it');
    return { runtime, key };
  };
  const sandbox = (method: string, path: string, body?: unknown) => callSandbox(started().runtime.sandboxUrl, method, path, body);
  const v1 = (method: string, path: string, body?: unknown) =>
    started().runtime.call(method, `/v1${path}`, {
      headers: { authorization: `Bearer ${started().runtime.demo.v1ApiKey}` },
      ...(body === undefined ? {} : { body }),
    });

  beforeAll(async () => {
    runtime = await startTestRuntime({ sandboxWebhooks: true, environment: { ...kitEnvironment } });
    key = (await issueKey(runtime.demo.organizationId)).secret;
    await sandbox('POST', '/webhooks', { sentDelayMs: 0, deliveredDelayMs: 0, readRate: 0, duplicateRate: 0, reorderRate: 0 });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  return {
    get runtime() {
      return started().runtime;
    },
    get key() {
      return started().key;
    },
    sandbox,
    v1,
    async settle() {
      await started().runtime.workersIdle();
      expect((await sandbox('POST', '/webhooks/drain?timeoutMs=60000')).status).toBe(200);
      await started().runtime.workersIdle();
    },
    optOuts: async () => (await v1('GET', '/opt-outs?pageSize=100')).body.data as Array<Record<string, unknown>>,
    sentTo: async (recipient) => ((await sandbox('GET', `/messages?recipient=${encodeURIComponent(recipient)}`)).body.data as unknown[]).length,
    async marketingRow(recipient) {
      const { runtime: current, key: secret } = started();
      const other = { countryCode: '91', toPhoneNumber: String(9_600_000_000 + Math.floor(Math.random() * 1_000_000)), templateParams: ['Bo'] };
      const body = orderUpdate([{ ...recipient, templateParams: ['Ana'] } as never, other], {
        templateName: 'spring_sale',
        templateLanguage: 'en',
        templateType: 'MARKETING',
      });
      const accepted = await current.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(secret), body });
      expect(accepted.status).toBe(200);
      const jobId = accepted.headers.get('x-broadcast-job-id')!;
      await waitForTerminal(current.demo.organizationId, jobId, 60_000);
      const rows = (await current.call('GET', `${BASE}/broadcasts/${jobId}/recipients`, { headers: keyHeader(secret) })).body.data.recipients as RecipientRow[];
      expect(rows[1]!.status).not.toBe('FAILED');
      return rows[0]!;
    },
  };
}
