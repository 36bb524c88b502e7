/** The sandbox's `latency` setting: log-normal answer times given by p50/p99, lost answers, validation. */
import { LatencyModel, parseLatencySetting, Z_99 } from '../../../sandbox/latency-distribution';
import { SandboxRequestError } from '../../../sandbox/sandbox-request-error';
import { PHONE_ID, RECIPIENT, fixtureAccounts, textMessage } from './sandbox-test-helpers';
import { useSandbox } from '../../support/use-sandbox';

/** Nearest-rank quantile of sorted draws. */
const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

const draws = (model: LatencyModel, count: number): number[] => Array.from({ length: count }, () => model.nextDelayMs()).sort((a, b) => a - b);

describe('LatencyModel', () => {
  it.each([
    [200, 1500],
    [100, 500],
    [50, 50],
  ])('draws with p50 %i ms and p99 %i ms: the quantiles of 50,000 draws are within 5 %', (p50Ms, p99Ms) => {
    const sorted = draws(new LatencyModel(parseLatencySetting({ distribution: 'lognormal', p50Ms, p99Ms, seed: 3 })), 50_000);
    expect(quantile(sorted, 0.5)).toBeGreaterThan(p50Ms * 0.95);
    expect(quantile(sorted, 0.5)).toBeLessThan(p50Ms * 1.05 + 1e-9);
    expect(quantile(sorted, 0.99)).toBeGreaterThan(p99Ms * 0.95);
    expect(quantile(sorted, 0.99)).toBeLessThan(p99Ms * 1.05 + 1e-9);
  });

  it("has the log-normal mean exp(mu + sigma^2 / 2): what Little's law needs, above the median", () => {
    const sorted = draws(new LatencyModel(parseLatencySetting({ distribution: 'lognormal', p50Ms: 200, p99Ms: 1500, seed: 5 })), 100_000);
    const sigma = Math.log(1500 / 200) / Z_99;
    const expected = 200 * Math.exp((sigma * sigma) / 2);
    const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
    expect(mean / expected).toBeGreaterThan(0.97);
    expect(mean / expected).toBeLessThan(1.03);
  });

  it('repeats the same draws for the same seed and differs for another', () => {
    const setting = { distribution: 'lognormal', p50Ms: 200, p99Ms: 1500, seed: 9 } as const;
    const first = draws(new LatencyModel(parseLatencySetting(setting)), 100);
    expect(draws(new LatencyModel(parseLatencySetting(setting)), 100)).toEqual(first);
    expect(draws(new LatencyModel(parseLatencySetting({ ...setting, seed: 10 })), 100)).not.toEqual(first);
  });

  it('never draws above maxMs', () => {
    const sorted = draws(new LatencyModel(parseLatencySetting({ distribution: 'lognormal', p50Ms: 200, p99Ms: 5000, maxMs: 6000, seed: 1 })), 20_000);
    expect(sorted[sorted.length - 1]).toBeLessThanOrEqual(6000);
    expect(sorted.filter((value) => value === 6000).length).toBeGreaterThan(0);
  });

  it('loses about timeoutRate of the answers, and none without a rate or a distribution', () => {
    const lossy = new LatencyModel(parseLatencySetting({ distribution: 'lognormal', p50Ms: 200, p99Ms: 1500, timeoutRate: 0.005, seed: 1 }));
    const lost = Array.from({ length: 100_000 }, () => lossy.nextAnswerLost()).filter(Boolean).length;
    expect(lost).toBeGreaterThan(400);
    expect(lost).toBeLessThan(600);
    const none = [new LatencyModel(parseLatencySetting(null)), new LatencyModel(parseLatencySetting({ distribution: 'lognormal', p50Ms: 1, p99Ms: 2 }))];
    for (const model of none) expect(Array.from({ length: 1000 }, () => model.nextAnswerLost()).some(Boolean)).toBe(false);
    expect(new LatencyModel(parseLatencySetting({ distribution: 'none' })).nextDelayMs()).toBe(0);
  });

  it.each([
    ['x', 'latency must be an object or null'],
    [{ distribution: 'pareto' }, 'latency.distribution must be "lognormal" or "none"'],
    [{ distribution: 'lognormal', p99Ms: 10 }, 'latency.p50Ms must be a number >= 0'],
    [{ distribution: 'lognormal', p50Ms: 0, p99Ms: 10 }, 'latency.p50Ms must be a number > 0'],
    [{ distribution: 'lognormal', p50Ms: 200, p99Ms: 100 }, 'latency.p99Ms must be at least latency.p50Ms'],
    [{ distribution: 'lognormal', p50Ms: 200, p99Ms: 1500, timeoutRate: 1.5 }, 'latency.timeoutRate must be a number between 0 and 1'],
    [{ distribution: 'lognormal', p50Ms: 200, p99Ms: 1500, seed: -1 }, 'latency.seed must be an integer >= 0'],
    [{ distribution: 'lognormal', p50Ms: 200, p99Ms: 1500, maxMs: 1000 }, 'latency.maxMs must be at least latency.p99Ms'],
    [{ distribution: 'lognormal', p50Ms: 200, p99Ms: 1500, p90Ms: 9 }, 'unknown latency settings: p90Ms'],
    [{ distribution: 'none', p50Ms: 200 }, 'latency with distribution "none" takes no other settings (got p50Ms)'],
  ])('rejects %j with a 400 naming the field', (value, message) => {
    expect(() => parseLatencySetting(value)).toThrow(SandboxRequestError);
    expect(() => parseLatencySetting(value)).toThrow(message);
  });
});

describe('latency through /_sandbox/control', () => {
  const client = useSandbox({ accounts: fixtureAccounts(), beforeEachTest: (sandbox) => sandbox.reset() });
  const META_LIKE = { distribution: 'lognormal', p50Ms: 200, p99Ms: 1500, timeoutRate: 0.005, seed: 1 };

  it('shows the setting with its defaults, turns it off with null or "none", and reset clears it', async () => {
    const set = await client.sandboxApi('POST', '/control', { latency: META_LIKE });
    expect(set.status).toBe(200);
    expect(set.body.latency).toEqual({ ...META_LIKE, maxMs: 60_000 });
    expect((await client.sandboxApi('POST', '/control', { latency: null })).body.latency).toEqual({ distribution: 'none' });
    await client.sandboxApi('POST', '/control', { latency: META_LIKE });
    expect((await client.sandboxApi('POST', '/control', { latency: { distribution: 'none' } })).body.latency).toEqual({ distribution: 'none' });
    await client.sandboxApi('POST', '/control', { latency: META_LIKE });
    await client.sandboxApi('POST', '/reset');
    expect((await client.sandboxApi('GET', '/control')).body.latency).toEqual({ distribution: 'none' });
  });

  it('answers 400 naming the field and applies nothing of the patch', async () => {
    const result = await client.sandboxApi('POST', '/control', { latencyMs: 7, latency: { distribution: 'lognormal', p50Ms: 200, p99Ms: 100 } });
    expect(result.status).toBe(400);
    expect(result.body.error.message).toBe('latency.p99Ms must be at least latency.p50Ms');
    const settings = (await client.sandboxApi('GET', '/control')).body;
    expect(settings.latencyMs).toBe(0);
    expect(settings.latency).toEqual({ distribution: 'none' });
  });

  it('accepts and logs a send whose answer it then loses (timeoutRate 1): the message went out, the client sees only its timeout', async () => {
    await client.sandboxApi('POST', '/control', { latency: { ...META_LIKE, p50Ms: 1, p99Ms: 2, timeoutRate: 1 }, timeoutHoldMs: 100 });
    await expect(client.send(textMessage(), { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    const logged = client.sandbox.acceptedMessages();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ recipient: RECIPIENT, answerLost: true });
  });

  it('answers every other send, refused ones included, without losing them (timeoutRate 0)', async () => {
    await client.sandboxApi('POST', '/control', {
      latency: { ...META_LIKE, p50Ms: 1, p99Ms: 5, timeoutRate: 0 },
      throughputByPhoneNumberId: { [PHONE_ID]: 1 },
    });
    const first = await client.send(textMessage());
    const second = await client.send(textMessage('15550009999'));
    expect(first.status).toBe(200);
    expect(second.status).toBe(400);
    expect(second.body.error.code).toBe(130429);
    expect(client.sandbox.acceptedMessages().map((message) => message.answerLost)).toEqual([undefined]);
  });
});
