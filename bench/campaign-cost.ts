/**
 * Campaign bench, part 4: DynamoDB units per recipient of a campaign beside a plain broadcast job's,
 * the same people with the same two values, in one runtime with every queue consumer running and
 * every request counted under the function that made it (lib/bench-runtime.ts; the gateway's under
 * `other`). No delivery events: the sandbox posts no statuses here, so both figures are the send
 * path alone (accept or launch, expansion, chunk worker); bench/broadcast-cost.ts adds the events.
 *
 * 1. The broadcast job (send-template-broadcast, `recipients` recipients of body seed 7) twice, the
 *    second counted: a known audience, the organization messaged them before.
 * 2. An audience of the same people (imported through the API, not counted), a campaign filling
 *    `{{1}}` and `{{2}}` from their attributes; from the launch to the last send and the consumers
 *    idle, counted. Goal: campaign WRU per recipient <= the job's + 1; RRU written down.
 */
import { awaitAccepted } from './lib/await-accepted';
import { withBenchRuntime, type BenchRuntime } from './lib/bench-runtime';
import { campaignBody, importMembers } from './lib/campaign-workload';
import { sumDynamo, type RequestCounts } from './lib/request-counter';
import { broadcastBody, postBroadcast } from './lib/workload';

export interface UnitsPerRecipient {
  label: string;
  recipients: number;
  sent: number;
  completed: boolean;
  seconds: number;
  writeUnitsPerRecipient: number;
  readUnitsPerRecipient: number;
  /** Per function (scope): write and read units per recipient. */
  byScope: Array<{ scope: string; writeUnits: number; readUnits: number }>;
  /** The requests with the most write units, per recipient. */
  topWrites: Array<{ request: string; calls: number; writeUnits: number }>;
  requestCounts: RequestCounts;
}

const SEED = 7;

function unitsOf(label: string, recipients: number, sent: number, completed: boolean, seconds: number, counts: RequestCounts): UnitsPerRecipient {
  const total = sumDynamo(counts);
  const byScope = Object.entries(counts.dynamodbByScope).map(([scope, labels]) => {
    const units = Object.values(labels).reduce((sum, count) => ({ w: sum.w + count.writeUnits, r: sum.r + count.readUnits }), { w: 0, r: 0 });
    return { scope, writeUnits: units.w / recipients, readUnits: units.r / recipients };
  });
  const topWrites = Object.entries(counts.dynamodb)
    .map(([request, count]) => ({ request, calls: count.calls, writeUnits: count.writeUnits / recipients }))
    .filter((row) => row.writeUnits > 0)
    .sort((a, b) => b.writeUnits - a.writeUnits)
    .slice(0, 8);
  return {
    label,
    recipients,
    sent,
    completed,
    seconds,
    writeUnitsPerRecipient: total.writeUnits / recipients,
    readUnitsPerRecipient: total.readUnits / recipients,
    byScope: byScope.sort((a, b) => b.writeUnits - a.writeUnits),
    topWrites,
    requestCounts: counts,
  };
}

/** Runs `start`, then waits for `recipients` more messages from the number and the consumers idle. */
async function counted(bench: BenchRuntime, phoneNumberId: string, recipients: number, label: string, start: () => Promise<void>): Promise<UnitsPerRecipient> {
  const before = bench.sentFrom(phoneNumberId);
  bench.counter!.reset();
  const started = performance.now();
  await start();
  const wait = await awaitAccepted({
    acceptedSoFar: () => bench.sentFrom(phoneNumberId) - before,
    expected: recipients,
    // A campaign's first message waits for the expander's first page (a claim per person): no stall before 2 minutes.
    deadline: started + (recipients / 100 + 300) * 1000,
    stallMs: 120_000,
    pollMs: 500,
  });
  await bench.consumers.idle();
  const seconds = (performance.now() - started) / 1000;
  return unitsOf(label, recipients, bench.sentFrom(phoneNumberId) - before, wait.completed, seconds, bench.counter!.snapshot());
}

export async function benchCampaignCost(options: {
  recipients: number;
  log: (line: string) => void;
}): Promise<{ job: UnitsPerRecipient; campaign: UnitsPerRecipient }> {
  return withBenchRuntime({ consumers: 'all', count: true }, async (bench) => {
    const { tenant, api } = await bench.tenant(630, 1000);
    const body = JSON.stringify(broadcastBody({ count: options.recipients, seed: SEED, from: tenant.phoneNumber, name: 'campaign cost bench' }));
    const post = async () => {
      const answer = await postBroadcast(bench.runtime.baseUrl, api.apiKey, body);
      if (answer.status !== 202 && answer.status !== 200) throw new Error(`broadcast refused: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    };
    const first = await counted(bench, tenant.phoneNumberId, options.recipients, 'broadcast job, new audience', post);
    options.log(
      `  cost: ${first.label}: ${first.sent}/${options.recipients} sent in ${first.seconds.toFixed(1)} s, ${first.writeUnitsPerRecipient.toFixed(2)} WRU/recipient`,
    );
    const job = await counted(bench, tenant.phoneNumberId, options.recipients, 'broadcast job, known audience', post);
    options.log(
      `  cost: ${job.label}: ${job.sent}/${options.recipients} sent in ${job.seconds.toFixed(1)} s, ${job.writeUnitsPerRecipient.toFixed(2)} WRU/recipient`,
    );

    const { audienceId } = (await api.createAudience('cost bench')).data;
    await importMembers(api, audienceId, SEED, options.recipients);
    const { campaignId } = (await api.createCampaign(campaignBody(tenant, [audienceId], 'campaign cost bench'))).data;
    const campaign = await counted(
      bench,
      tenant.phoneNumberId,
      options.recipients,
      'campaign, known audience',
      async () => void (await api.launch(campaignId)),
    );
    options.log(
      `  cost: ${campaign.label}: ${campaign.sent}/${options.recipients} sent in ${campaign.seconds.toFixed(1)} s, ${campaign.writeUnitsPerRecipient.toFixed(2)} WRU/recipient`,
    );
    return { job, campaign };
  });
}
