/**
 * What the send rules cost on the send path (docs/CAMPAIGNS.md "Respecting the people on the list";
 * docs/PERFORMANCE.md "Send rules"):
 * - the chunk worker's send-window split (`splitBySendWindow`, the real code: each recipient's zone
 *   from their number, each zone's window state once per chunk), in CPU per recipient, over chunks of
 *   1,000 mixing seven countries, the US and Canada by area code;
 * - a frequency-cap reservation (`DynamoDbFrequencyCapStore.reserve`, the real adapter on the local
 *   runtime's dynalite): one person at a time, and 20 sends for one person at once (the contended case
 *   the conditional write keeps exact).
 */
import { DynamoDbFrequencyCapStore } from '../shared/adapters/dynamodb/dynamodb-frequency-cap-store';
import type { ChunkRecipient } from '../shared/broadcast/chunk-message';
import { splitBySendWindow } from '../shared/broadcast/chunk-worker/send-window-hold';
import type { GoalRow } from './drain-latency';
import { withBenchRuntime } from './lib/bench-runtime';
import { percentile, round } from './lib/stats';

export interface SendRulesBenchResult {
  split: { recipients: number; cpuMicrosPerRecipient: number };
  reserve: { calls: number; p50Ms: number; p99Ms: number; contended: { parallel: number; reserved: number; wallMs: number } };
}

/** Numbers of India, the UK, Brazil, Indonesia, Germany, and the US and Canada (several zones by area code). */
const PREFIXES = ['9198', '447911', '5511', '62812', '49151', '1212', '1415', '1312', '1303', '1416', '1604'];

function recipientsOf(count: number, chunk: number): ChunkRecipient[] {
  return Array.from({ length: count }, (_, index) => {
    const prefix = PREFIXES[(index + chunk) % PREFIXES.length]!;
    const rest = String(1_000_000 + chunk * count + index)
      .padStart(12 - prefix.length + 1, '0')
      .slice(-(12 - prefix.length + 1));
    return { index, to: `${prefix}${rest}`, parameters: [] };
  });
}

/** CPU of the window split per recipient (microseconds): every recipient's zone, as the worker does per chunk. */
function benchSplit(chunks: number): SendRulesBenchResult['split'] {
  const window = { from: '09:00', to: '20:00' } as const;
  const batches = Array.from({ length: chunks }, (_, chunk) => recipientsOf(1000, chunk));
  splitBySendWindow(window, batches[0]!, new Date()); // warm: the zone data and the zones' Intl formatters
  const start = process.cpuUsage();
  for (const batch of batches) splitBySendWindow(window, batch, new Date());
  const used = process.cpuUsage(start);
  const recipients = chunks * 1000;
  return { recipients, cpuMicrosPerRecipient: (used.user + used.system) / recipients };
}

/**
 * Runs both parts and answers the figures and their goals.
 *
 * @example
 * const { result, goals } = await benchSendRules({ chunks: 100, reservations: 500 });
 */
export async function benchSendRules(options: { chunks?: number; reservations?: number } = {}): Promise<{ result: SendRulesBenchResult; goals: GoalRow[] }> {
  const split = benchSplit(options.chunks ?? 100);
  const calls = options.reservations ?? 500;
  const reserve = await withBenchRuntime({ consumers: [] }, async ({ services }) => {
    const caps = new DynamoDbFrequencyCapStore(services.clients.dynamoDb, services.config.tableNames.messaging);
    const limit = { count: 2, perDays: 7 };
    const latencies: number[] = [];
    for (let index = 0; index < calls; index += 1) {
      const start = performance.now();
      await caps.reserve('org_bench', `4479110${String(index).padStart(5, '0')}`, { sendId: `job_bench#${index}`, at: new Date() }, limit);
      latencies.push(performance.now() - start);
    }
    const parallel = 20;
    const start = performance.now();
    const answers = await Promise.all(
      Array.from({ length: parallel }, (_, index) => caps.reserve('org_bench', '447911999999', { sendId: `job_${index}#0`, at: new Date() }, limit)),
    );
    const wallMs = performance.now() - start;
    return {
      calls,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      contended: { parallel, reserved: answers.filter((answer) => answer.reserved).length, wallMs },
    };
  });
  const goals: GoalRow[] = [
    // A tenth of issue 40's 400 µs per message for the whole chunk worker.
    {
      figure: 'send-window split CPU per recipient',
      value: `${round(split.cpuMicrosPerRecipient, 1)} µs`,
      goal: '≤ 40 µs',
      met: split.cpuMicrosPerRecipient <= 40 ? 'yes' : 'no',
    },
    {
      figure: `frequency cap: ${reserve.contended.parallel} sends for one person at once, cap 2`,
      value: `${reserve.contended.reserved} reserved`,
      goal: 'exactly 2',
      met: reserve.contended.reserved === 2 ? 'yes' : 'no',
    },
    {
      figure: 'frequency cap reservation p50 / p99 (dynalite)',
      value: `${round(reserve.p50Ms, 2)} / ${round(reserve.p99Ms, 2)} ms`,
      goal: '(diagnostic)',
      met: '-',
    },
  ];
  return { result: { split, reserve }, goals };
}
