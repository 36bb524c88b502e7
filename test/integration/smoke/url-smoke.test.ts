/**
 * The URL-driven smoke suite (`npm run smoke`, scripts/smoke/) against the local runtime, so its
 * steps keep matching the service: configured only from the runtime's demo.json, as a user would.
 */
import { join } from 'node:path';
import { resolveSmokeConfig, type SmokeConfig } from '../../../scripts/smoke/smoke-config';
import { runSmoke, smokeSteps } from '../../../scripts/smoke/smoke-steps';
import { smokeCli } from '../../../scripts/smoke';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';

jest.setTimeout(240_000);

let runtime: TestRuntime;
let config: SmokeConfig;

beforeAll(async () => {
  runtime = await startTestRuntime();
  // Nothing but the demo file: its baseUrl gives every surface's URL (one gateway, every stage).
  config = resolveSmokeConfig({ 'demo-file': join(runtime.dataDirectory, 'demo.json'), 'poll-interval-ms': '1000' });
}, 120_000);
afterAll(async () => {
  await runtime?.close();
});

describe('npm run smoke against the local runtime', () => {
  it('resolves each surface from the demo file to <baseUrl>/<stage><basePath>', () => {
    expect(config.urls).toEqual({
      broadcast: `${runtime.baseUrl}/prod/api/v2`,
      organization: `${runtime.baseUrl}/v2`,
      v1: `${runtime.baseUrl}/v1`,
      upstream: `${runtime.baseUrl}/staging/api/v2`,
      webhooks: `${runtime.baseUrl}/hooks`,
      docs: `${runtime.baseUrl}/docs`,
      clicks: `${runtime.baseUrl}/l`,
    });
    expect(config.template).toEqual({ name: 'order_update', language: 'en_US', category: 'UTILITY', parameters: ['Smoke1', 'Smoke2'] });
  });

  it('every step passes, the broadcast of 1,001 recipients reaching the Cloud API sandbox', async () => {
    const before = runtime.sandbox!.acceptedMessages().length;
    const results = await runSmoke(config);
    expect(results.filter((result) => !result.passed)).toEqual([]);
    expect(results.map((result) => result.name)).toEqual(smokeSteps.map((step) => step.name));
    expect(results.find((result) => result.name === 'Meta webhook endpoint')!.detail).toBe(
      'handshake answered; unsigned POST and wrong token refused; a signed status event queued',
    );
    // 1,001 template messages, the free-form text and send-single's message (the latter two are queued: wait for them).
    const sent = async () => runtime.sandbox!.acceptedMessages().length - before;
    for (let attempt = 0; attempt < 100 && (await sent()) < 1003; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await sent()).toBe(1003);
  });

  it('a step fails with the reason when the deployment refuses it, and the others still run', async () => {
    const wrongSecret = await runSmoke(
      { ...config, webhookVerifyToken: undefined, metaAppSecret: 'not-the-app-secret' },
      undefined,
      smokeSteps.filter((step) => step.name === 'Meta webhook endpoint'),
    );
    expect(wrongSecret).toEqual([
      { name: 'Meta webhook endpoint', passed: false, detail: expect.stringMatching(/^POST of a signed status event: expected 200, got 401/) },
    ]);
    const results = await runSmoke(
      { ...config, apiKey: 'bk_not_a_key', webhookVerifyToken: 'not-the-token' },
      undefined,
      smokeSteps.filter((step) => ['free-form text', 'Meta webhook endpoint', 'health'].includes(step.name)),
    );
    expect(results).toEqual([
      { name: 'health', passed: true, detail: expect.stringMatching(/^version /) },
      { name: 'free-form text', passed: false, detail: expect.stringMatching(/^POST send-freeform: expected 200, got 401/) },
      { name: 'Meta webhook endpoint', passed: false, detail: expect.stringMatching(/^GET handshake with the verify token: expected 200, got 403/) },
    ]);
  });

  it('the CLI prints PASS or FAIL per step with the reason and exits 1 when one failed', async () => {
    const lines: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((text) => (lines.push(String(text)), true));
    let code: number;
    try {
      code = await smokeCli(['--demo-file', join(runtime.dataDirectory, 'demo.json'), '--api-key', 'bk_not_a_key']);
    } finally {
      write.mockRestore();
    }
    expect(code).toBe(1);
    const output = lines.join('');
    expect(output).toContain('PASS  health: version');
    expect(output).toMatch(/FAIL {2}template broadcast to completion: POST send-template-broadcast: expected 202 \(or 200 for ≤ 1,000\), got 401/);
    expect(output).toContain('PASS  /upstream: phone numbers, business profile, templates: 3 routes');
    expect(output).toMatch(/\d passed, [1-9] failed\n$/);
  });
});
