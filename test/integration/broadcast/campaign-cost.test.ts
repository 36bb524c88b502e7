/**
 * Cost per campaign (docs/BROADCAST.md "Cost per campaign") through the local runtime: a rate card
 * set with the admin command, a finished job whose sandbox status webhooks carry Meta's pricing,
 * and the status summary's `cost` equal to count × rate per category and calling code.
 */
import { getServices } from '../../../functions/composition';
import { runRateCardAdminCommand } from '../../../shared/pricing/rate-card-admin-commands';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, issueKey, keyHeader, kitEnvironment, orderUpdate, recipients, waitForTerminal } from './broadcast-test-kit';

jest.setTimeout(180_000);

const card = {
  currency: 'EUR',
  rates: { '91': { utility: '0.0014', marketing: '0.0107' }, '44': { utility: '0.022' }, '*': { utility: '0.01', marketing: '0.06' } },
};
const micros: Record<string, Record<string, number>> = { '91': { utility: 1_400, marketing: 10_700 }, '44': { utility: 22_000 } };

describe('cost per campaign from the rate card and the pricing of status webhooks', () => {
  let runtime: TestRuntime;
  let key: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ sandboxWebhooks: true, environment: { ...kitEnvironment } });
    key = (await issueKey(runtime.demo.organizationId)).secret;
    await runRateCardAdminCommand(getServices().rateCardAdmin, 'set-rate-card', { file: 'card.json' }, () => JSON.stringify(card));
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  }, 60_000);

  const get = (path: string) => runtime.call('GET', `${BASE}${path}`, { headers: keyHeader(key) });
  const settle = async () => {
    await runtime.workersIdle();
    expect((await fetch(`${runtime.sandboxUrl}/_sandbox/webhooks/drain?timeoutMs=60000`, { method: 'POST' })).status).toBe(200);
    await runtime.workersIdle();
  };

  it("equals count × rate per category and country for a finished job's billable recipients", async () => {
    const data = [...recipients(30, { first: 9_500_000_000 }), ...recipients(10, { first: 7_700_900_000, countryCode: '44' })];
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key), body: orderUpdate(data) });
    expect(accepted.status).toBe(200);
    const jobId = accepted.headers.get('x-broadcast-job-id')!;
    await waitForTerminal(runtime.demo.organizationId, jobId, 60_000);
    await settle();

    const rows = (await get(`/broadcasts/${jobId}/recipients?limit=100`)).body.data.recipients as Array<{
      countryCode: string;
      pricing?: { category: string; billable: boolean };
    }>;
    const billed = rows.filter((row) => row.pricing?.billable);
    expect(billed.length).toBeGreaterThan(0);
    const expected: Record<string, { billed: number; micros: number }> = {};
    for (const row of billed) {
      const entry = (expected[row.pricing!.category] ??= { billed: 0, micros: 0 });
      entry.billed += 1;
      entry.micros += micros[row.countryCode]![row.pricing!.category]!;
    }
    const format = (value: number) =>
      (value / 1_000_000)
        .toFixed(6)
        .replace(/0+$/, '')
        .replace(/\.(\d)$/, '.$10')
        .replace(/\.$/, '.00');

    const status = await get(`/status/${jobId}`);
    expect(status.status).toBe(200);
    const cost = status.body.data.summary.cost;
    expect(cost).toEqual({
      currency: 'EUR',
      billed: billed.length,
      amount: format(Object.values(expected).reduce((sum, entry) => sum + entry.micros, 0)),
      byCategory: Object.fromEntries(Object.entries(expected).map(([category, entry]) => [category, { billed: entry.billed, amount: format(entry.micros) }])),
    });
    // Each billed row shows its own price; the rows add up to the summary's amount.
    const listed = (await get(`/broadcasts/${jobId}/recipients?limit=100`)).body.data.recipients as Array<{
      countryCode: string;
      pricing?: { category: string; billable: boolean };
      cost?: { currency: string; amount: string };
    }>;
    for (const row of listed) {
      if (row.pricing?.billable) expect(row.cost).toEqual({ currency: 'EUR', amount: format(micros[row.countryCode]![row.pricing.category]!) });
      else expect(row.cost).toBeUndefined();
    }
    const csv = await (await fetch(`${runtime.baseUrl}${BASE}/broadcasts/${jobId}/recipients?format=csv`, { headers: keyHeader(key) })).text();
    expect(csv.split('\r\n')[0]!.endsWith(',cost,costCurrency,pricingSubtype,repliedAt,buttonPayload,firstClickAt,clicks,waitingUntil')).toBe(true);
    // Both countries' rows are in it: 10 × 0.022 alone is 0.22.
    expect(billed.filter((row) => row.countryCode === '44').length).toBe(10);
  });
});
