/**
 * Campaign bench, part 3: expansion. For each audience size (default 100,000 and 300,000), a fresh
 * runtime in `threads` isolation (the API's functions and the emulators in threads of their own)
 * with one consumer: the campaign expander, its handler built in THIS thread
 * (lib/bench-runtime.ts `consumersInThisThread`) and fed by its own queue's poller. No chunk worker
 * runs: the chunk messages the expander fans out wait on the outbound queue, so the figure is the
 * expander's alone.
 *
 * - Members fanned out per second: members the checkpoint counts / (launch request sent -> the
 *   expander's checkpoint reads `done`, polled every 100 ms through the campaign store; or the time
 *   limit, audience / 2,000 + 120 s). Goal >= 20,000/s.
 * - Peak memory: this thread's V8 heap (`process.memoryUsage().heapUsed`, which is per isolate:
 *   the emulators, the sandbox's threads and the API's functions are not in it) sampled every
 *   25 ms from launch to `done`, beside its value just before the launch after a full GC (the
 *   gateway, the poller, the bench's own state) and just after `done` after a full GC (what
 *   the expansion left behind). Goal: flat between sizes, <= 256 MB. Process RSS is printed too
 *   (it holds every thread, dynalite's tables among them).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { withBenchRuntime } from './lib/bench-runtime';
import { audienceStoreOf, campaignStoreOf } from './lib/campaign-stores';
import { campaignBody, seededAudience } from './lib/campaign-workload';
import { sleep } from './lib/stats';

export interface ExpansionRun {
  members: number;
  seedSeconds: number;
  /** Launch request sent -> checkpoint `done`. */
  seconds: number;
  membersPerSecond: number;
  launchMs: number;
  done: boolean;
  counts?: Record<string, number>;
  /** Chunk messages waiting on the outbound queue at `done` (no chunk worker ran). */
  chunkMessages?: number;
  heapMiB: { before: number; peak: number; retainedAfter: number };
  rssMiB: { before: number; peak: number };
}

const MiB = 2 ** 20;

/** A full collection on demand (`--expose-gc` set at run time: the bench runs under tsx without flags). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

export async function benchCampaignExpansion(options: { sizes: readonly number[]; log: (line: string) => void }): Promise<ExpansionRun[]> {
  const runs: ExpansionRun[] = [];
  for (const [position, members] of options.sizes.entries()) runs.push(await expandOnce(members, 620 + position, options.log));
  return runs;
}

function expandOnce(members: number, tenantNumber: number, log: (line: string) => void): Promise<ExpansionRun> {
  return withBenchRuntime({ isolation: 'threads', consumers: ['campaign-expander'], consumersInThisThread: true }, async ({ tenant, services, runtime }) => {
    const gc = collector();
    const { tenant: org, api } = await tenant(tenantNumber, 1000);
    log(`  expansion: seeding ${members.toLocaleString('en-US')} members`);
    const { audienceId, seedSeconds } = await seededAudience(api, audienceStoreOf(services), org, 43, members, log);
    const { campaignId } = (await api.createCampaign(campaignBody(org, [audienceId], `bench expansion ${members}`))).data;
    const campaigns = campaignStoreOf(services);
    gc();
    const before = process.memoryUsage();
    let peakHeap = before.heapUsed;
    let peakRss = before.rss;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakHeap = Math.max(peakHeap, now.heapUsed);
      peakRss = Math.max(peakRss, now.rss);
    }, 25);
    const started = performance.now();
    const deadline = started + (members / 2_000 + 120) * 1000;
    let done = false;
    let counts: Record<string, number> | undefined;
    let launchMs: number;
    try {
      launchMs = (await api.launch(campaignId)).ms;
      while (!done && performance.now() < deadline) {
        await sleep(100);
        const expansion = (await campaigns.getCampaign(org.organizationId, campaignId))?.expansion;
        done = expansion?.status === 'done';
        counts = expansion ? { ...expansion.counts } : undefined;
      }
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    gc();
    const after = process.memoryUsage();
    const chunkMessages = await runtime.sqs
      .send(new GetQueueAttributesCommand({ QueueUrl: runtime.queueUrls.outbound, AttributeNames: ['ApproximateNumberOfMessages'] }))
      .then((answer) => Number(answer.Attributes?.ApproximateNumberOfMessages ?? Number.NaN))
      .catch(() => undefined);
    const run: ExpansionRun = {
      members,
      seedSeconds,
      seconds,
      // Members the checkpoint says were read: all of them once done, what was reached if the time ran out.
      membersPerSecond: (counts?.members ?? 0) / seconds,
      launchMs,
      done,
      counts,
      chunkMessages,
      heapMiB: { before: before.heapUsed / MiB, peak: peakHeap / MiB, retainedAfter: after.heapUsed / MiB },
      rssMiB: { before: before.rss / MiB, peak: peakRss / MiB },
    };
    log(
      `  expansion of ${members.toLocaleString('en-US')}: ${done ? 'done' : 'NOT done'} in ${seconds.toFixed(1)} s (${Math.round(run.membersPerSecond)}/s); ` +
        `heap ${run.heapMiB.before.toFixed(0)} -> peak ${run.heapMiB.peak.toFixed(0)} MiB, ${run.heapMiB.retainedAfter.toFixed(0)} after GC; ${chunkMessages ?? '?'} chunk messages queued`,
    );
    return run;
  });
}
