/**
 * Campaign bench, parts 1 and 2 (`npm run bench -- --only=campaign`, issue 36 "Speed, size and cost").
 *
 * Import: `members` members through POST /audiences/{id}/members, pages of 10,000 one after
 * another through the local gateway, every DynamoDB request counted (lib/request-counter.ts:
 * capacity as dynalite reports it, refused conditional writes and index copies added): members
 * per second and write units per member (goal <= 1.2).
 *
 * Launch: in `threads` isolation (the emulators on a core of their own, the API's functions in
 * worker threads, as `npm start` runs), an audience of `members` (default 1,000,000) seeded straight
 * through the audience store's adapter (upsertMembers, pages of 1,000: an import of a million through the
 * API would take the bench's whole time), then `launches` campaigns to it, each launched once
 * through the API: the launch's answer time, p50 (goal <= 1 s). No expander runs, so nothing but
 * the launch competes for the machine; the launch must not depend on the audience's size.
 */
import { sumDynamo, type RequestCounts } from './lib/request-counter';
import { withBenchRuntime } from './lib/bench-runtime';
import { audienceStoreOf } from './lib/campaign-stores';
import { campaignBody, importMembers, seededAudience, type ImportRun } from './lib/campaign-workload';
import { median, percentile } from './lib/stats';

export interface ImportResult extends ImportRun {
  membersPerSecond: number;
  writeUnitsPerMember: number;
  readUnitsPerMember: number;
  /** 429s the import waited out. */
  throttled: number;
  /** The heaviest requests by write units. */
  topWrites: Array<{ request: string; calls: number; writeUnits: number }>;
  memberCountAfter: number;
}

const topWrites = (counts: RequestCounts, top = 6) =>
  Object.entries(counts.dynamodb)
    .map(([request, count]) => ({ request, calls: count.calls, writeUnits: count.writeUnits }))
    .filter((row) => row.writeUnits > 0)
    .sort((a, b) => b.writeUnits - a.writeUnits)
    .slice(0, top);

export async function benchCampaignImport(options: { members: number; log: (line: string) => void }): Promise<ImportResult> {
  return withBenchRuntime({ consumers: [], count: true }, async ({ tenant, counter }) => {
    const { api } = await tenant(610, 80);
    const { audienceId } = (await api.createAudience('bench import')).data;
    counter!.reset();
    const run = await importMembers(api, audienceId, 41, options.members);
    const counts = counter!.snapshot();
    const total = sumDynamo(counts);
    const memberCountAfter = (await api.getAudience(audienceId)).data.memberCount;
    options.log(
      `  import: ${run.members} members in ${run.pages} pages, ${run.seconds.toFixed(1)} s; added ${run.added}, updated ${run.updated}, invalid ${run.invalid}; memberCount ${memberCountAfter}`,
    );
    return {
      ...run,
      membersPerSecond: run.members / run.seconds,
      writeUnitsPerMember: total.writeUnits / run.members,
      readUnitsPerMember: total.readUnits / run.members,
      throttled: api.throttled,
      topWrites: topWrites(counts),
      memberCountAfter,
    };
  });
}

export interface LaunchResult {
  members: number;
  seedSeconds: number;
  launchMs: number[];
  p50Ms: number;
  maxMs: number;
  states: string[];
  throttled: number;
}

export async function benchCampaignLaunch(options: { members: number; launches: number; log: (line: string) => void }): Promise<LaunchResult> {
  return withBenchRuntime({ isolation: 'threads', consumers: [] }, async ({ tenant, services }) => {
    const { tenant: org, api } = await tenant(611, 80);
    options.log(`  launch: seeding ${options.members.toLocaleString('en-US')} members through the audience store`);
    const { audienceId, seedSeconds } = await seededAudience(api, audienceStoreOf(services), org, 42, options.members, options.log);
    options.log(`  launch: seeded in ${seedSeconds.toFixed(1)} s (${Math.round(options.members / seedSeconds)}/s); launching ${options.launches} campaigns`);
    const launchMs: number[] = [];
    const states: string[] = [];
    for (let launch = 0; launch < options.launches; launch += 1) {
      const { campaignId } = (await api.createCampaign(campaignBody(org, [audienceId], `bench launch ${launch}`))).data;
      const answer = await api.launch(campaignId);
      launchMs.push(answer.ms);
      states.push(answer.data.state);
    }
    return { members: options.members, seedSeconds, launchMs, p50Ms: median(launchMs), maxMs: percentile(launchMs, 100), states, throttled: api.throttled };
  });
}
