/**
 * `npm run bench -- --only=campaign` (issue 36 "Speed, size and cost"; docs/PERFORMANCE.md
 * "Campaigns"): audiences and campaigns, each part in a runtime of its own, printed as tables and
 * returned with its goal rows. Sizes (defaults are the issue's):
 *
 *   --campaign-parts=import,launch,expansion,cost,drain,fairness   (default: all six)
 *   --campaign-members=200000            import through the API, pages of 10,000
 *   --campaign-launch-members=1000000    audience seeded through the store, then launched
 *   --campaign-launches=5                campaigns launched to it (p50 of their answers)
 *   --campaign-expansion-members=100000,300000
 *   --campaign-cost-recipients=10000     campaign and broadcast job, units per recipient
 *   --campaign-drain-members=100000      drained at 1,000/s, exactly once
 *   --campaign-beside-members=100000     the campaign beside the `fifth` measurement (--fifth-recipients= as for fifth)
 */
import { benchCampaignImport, benchCampaignLaunch } from './campaign-import';
import { benchCampaignExpansion } from './campaign-expansion';
import { benchCampaignCost, type UnitsPerRecipient } from './campaign-cost';
import { benchCampaignDrain } from './campaign-drain';
import { benchCampaignFairness } from './campaign-beside';
import type { GoalRow } from './drain-latency';
import { int, median, ms, round } from './lib/stats';
import { renderTable, section } from './lib/table';

export const CAMPAIGN_PARTS = ['import', 'launch', 'expansion', 'cost', 'drain', 'fairness'] as const;
export type CampaignPart = (typeof CAMPAIGN_PARTS)[number];

export interface CampaignBenchOptions {
  parts: ReadonlySet<CampaignPart>;
  importMembers: number;
  launchMembers: number;
  launches: number;
  expansionMembers: readonly number[];
  costRecipients: number;
  drainMembers: number;
  besideMembers: number;
  fifthRecipients: number;
  out: (line: string) => void;
}

const yes = (met: boolean) => (met ? 'yes' : 'no');
const n = (value: number) => value.toLocaleString('en-US');

export async function benchCampaign(options: CampaignBenchOptions): Promise<{ results: Record<string, unknown>; goals: GoalRow[] }> {
  const { out, parts } = options;
  const results: Record<string, unknown> = {};
  const goals: GoalRow[] = [];
  if (parts.has('import')) {
    out(section(`C1. Audience import: ${n(options.importMembers)} members through POST /audiences/{id}/members, pages of 10,000`));
    const imported = await benchCampaignImport({ members: options.importMembers, log: out });
    results.import = imported;
    out(
      renderTable(
        ['request (heaviest writes)', 'calls', 'WRU', 'WRU per member'],
        imported.topWrites.map((row) => [row.request, row.calls, round(row.writeUnits, 0), round(row.writeUnits / imported.members, 3)]),
      ),
    );
    out(`page p50 ${ms(median(imported.pageMs))}; 429s waited out: ${imported.throttled}; RRU per member ${round(imported.readUnitsPerMember, 3)}`);
    goals.push(
      {
        figure: `audience import, ${n(imported.members)} members (pages of 10,000)`,
        value: `${int(imported.membersPerSecond)} members/s`,
        goal: 'none set',
        met: '-',
      },
      {
        figure: 'audience import: write units per member',
        value: `${round(imported.writeUnitsPerMember, 3)} WRU`,
        goal: '<= 1.2',
        met: yes(imported.writeUnitsPerMember <= 1.2 && imported.invalid === 0),
      },
    );
  }
  if (parts.has('launch')) {
    out(section(`C2. Launch of a ${n(options.launchMembers)}-member audience (seeded through the store), ${options.launches} campaigns`));
    const launch = await benchCampaignLaunch({ members: options.launchMembers, launches: options.launches, log: out });
    results.launch = launch;
    out(
      `launch answers: ${launch.launchMs.map((value) => Math.round(value)).join(', ')} ms; states ${[...new Set(launch.states)].join(', ')}; seeding ${round(launch.seedSeconds, 0)} s`,
    );
    goals.push({
      figure: `campaign launch, ${n(launch.members)}-member audience, p50 (${options.launches} launches)`,
      value: ms(launch.p50Ms),
      goal: '<= 1 s',
      met: yes(launch.p50Ms <= 1000),
    });
  }
  if (parts.has('expansion')) {
    out(section(`C3. Expansion: members fanned out per second and the expander's heap (${options.expansionMembers.map(n).join(' and ')} members)`));
    const runs = await benchCampaignExpansion({ sizes: options.expansionMembers, log: out });
    results.expansion = runs;
    out(
      renderTable(
        ['members', 'launch -> done', 'members/s', 'heap before', 'heap peak', 'heap after GC', 'RSS peak (all threads)', 'chunks queued', 'sendable'],
        runs.map((run) => [
          n(run.members),
          `${round(run.seconds, 1)} s${run.done ? '' : ' (NOT done)'}`,
          int(run.membersPerSecond),
          `${round(run.heapMiB.before, 0)} MiB`,
          `${round(run.heapMiB.peak, 0)} MiB`,
          `${round(run.heapMiB.retainedAfter, 0)} MiB`,
          `${round(run.rssMiB.peak, 0)} MiB`,
          run.chunkMessages ?? '?',
          run.counts?.sendable ?? '?',
        ]),
      ),
    );
    for (const run of runs) {
      goals.push({
        figure: `expansion, ${n(run.members)} members: fanned out per second`,
        value: `${int(run.membersPerSecond)}/s`,
        goal: '>= 20,000/s',
        met: yes(run.done && run.membersPerSecond >= 20_000),
      });
      goals.push({
        figure: `expansion, ${n(run.members)} members: the expander's peak heap (its thread)`,
        value: `${round(run.heapMiB.peak, 0)} MiB (${round(run.heapMiB.peak - run.heapMiB.before, 0)} above the idle heap)`,
        goal: '<= 256 MB, flat',
        met: yes(run.heapMiB.peak * 1.048576 <= 256),
      });
    }
  }
  if (parts.has('cost')) {
    out(
      section(
        `C4. DynamoDB units per recipient: campaign beside a broadcast job (${n(options.costRecipients)} recipients, known audience, no delivery events)`,
      ),
    );
    const cost = await benchCampaignCost({ recipients: options.costRecipients, log: out });
    results.cost = { job: { ...cost.job, requestCounts: undefined }, campaign: { ...cost.campaign, requestCounts: undefined } };
    const scopes = [...new Set([...cost.job.byScope, ...cost.campaign.byScope].map((row) => row.scope))];
    const of = (units: UnitsPerRecipient, scope: string) => units.byScope.find((row) => row.scope === scope);
    out(
      renderTable(
        ['function (gateway: other)', 'job WRU', 'job RRU', 'campaign WRU', 'campaign RRU'],
        [
          ...scopes.map((scope) => [
            scope,
            round(of(cost.job, scope)?.writeUnits ?? 0, 3),
            round(of(cost.job, scope)?.readUnits ?? 0, 3),
            round(of(cost.campaign, scope)?.writeUnits ?? 0, 3),
            round(of(cost.campaign, scope)?.readUnits ?? 0, 3),
          ]),
          [
            'all, per recipient',
            round(cost.job.writeUnitsPerRecipient, 3),
            round(cost.job.readUnitsPerRecipient, 3),
            round(cost.campaign.writeUnitsPerRecipient, 3),
            round(cost.campaign.readUnitsPerRecipient, 3),
          ],
        ],
      ),
    );
    out('Campaign, heaviest writes per recipient:');
    out(
      renderTable(
        ['request', 'calls', 'WRU per recipient'],
        cost.campaign.topWrites.map((row) => [row.request, row.calls, round(row.writeUnits, 3)]),
      ),
    );
    const complete = cost.job.completed && cost.campaign.completed;
    goals.push(
      {
        figure: 'campaign write units per recipient (send path) vs a known-audience job',
        value: `${round(cost.campaign.writeUnitsPerRecipient, 2)} vs ${round(cost.job.writeUnitsPerRecipient, 2)} WRU${complete ? '' : ' (INCOMPLETE)'}`,
        goal: "<= job's + 1",
        met: yes(complete && cost.campaign.writeUnitsPerRecipient <= cost.job.writeUnitsPerRecipient + 1),
      },
      {
        figure: 'campaign read units per recipient (send path) vs a known-audience job',
        value: `${round(cost.campaign.readUnitsPerRecipient, 2)} vs ${round(cost.job.readUnitsPerRecipient, 2)} RRU`,
        goal: '(written down)',
        met: '-',
      },
    );
  }
  if (parts.has('drain')) {
    out(section(`C5. A ${n(options.drainMembers)}-member campaign drained through the sandbox at 1,000/s`));
    const drain = await benchCampaignDrain({ members: options.drainMembers, log: out });
    results.drain = drain;
    out(
      renderTable(
        ['figure', 'value'],
        [
          ['messages / members', `${n(drain.messages)} / ${n(drain.members)}${drain.completed ? '' : drain.stalled ? ' (stalled)' : ' (timed out)'}`],
          ['duplicates / missing', `${drain.duplicates} / ${drain.missing}`],
          ['achieved rate (first to last message)', `${int(drain.achievedPerSecond)}/s`],
          ['launch answered -> first message', ms(drain.firstMessageAfterMs)],
          [
            'campaign afterwards (GET /campaigns/{id})',
            `${drain.campaign.state}, sendable ${drain.campaign.sendable}, sent ${drain.campaign.sent}, failed ${drain.campaign.failed}`,
          ],
        ],
      ),
    );
    goals.push({
      figure: `campaign of ${n(drain.members)} at 1,000/s: exactly once`,
      value: `dup ${drain.duplicates}, missing ${drain.missing}, ${int(drain.achievedPerSecond)}/s`,
      goal: '0 duplicates, 0 missing',
      met: yes(drain.completed && drain.duplicates === 0 && drain.missing === 0),
    });
  }
  if (parts.has('fairness')) {
    out(
      section(
        `C6. A campaign slows no one else: the fifth organization (--only=fifth) without and with another organization's ${n(options.besideMembers)}-member campaign`,
      ),
    );
    const fairness = await benchCampaignFairness({ totalRecipients: options.fifthRecipients, members: options.besideMembers, log: out });
    results.fairness = {
      ...fairness,
      without: fairness.without && { ...fairness.without, sends: undefined },
      with: fairness.with && { ...fairness.with, sends: undefined },
    };
    const row = (label: string, fifth: typeof fairness.without, fraction: number) => [
      label,
      fifth ? ms(fifth.p50Ms) : 'n/a',
      fifth ? ms(fifth.p99Ms) : 'n/a',
      fifth ? ms(fifth.maxMs) : 'n/a',
      fifth ? `${fifth.arrived} / ${fifth.sends.length}` : '-',
      `${round(fraction * 100, 1)}%`,
    ];
    out(
      renderTable(
        ['', 'fifth p50', 'fifth p99', 'fifth max', 'arrived / sent', 'four drains achieved'],
        [row('without a campaign', fairness.without, fairness.drainFractions[0]), row('with the campaign', fairness.with, fairness.drainFractions[1])],
      ),
    );
    if (fairness.campaign)
      out(
        `the campaign: launch ${ms(fairness.campaign.launchMs)}, ${n(fairness.campaign.sentDuringDrain)} messages during the drains (${int(fairness.campaign.perSecondDuringDrain)}/s), then ${fairness.campaign.stateAtEnd}`,
      );
    const [before, after] = [fairness.without?.p99Ms ?? Number.NaN, fairness.with?.p99Ms ?? Number.NaN];
    goals.push({
      figure: "fifth organization's p99 with another organization's campaign draining / without",
      value: `${ms(after)} / ${ms(before)}`,
      goal: 'no worse (within 10 %)',
      met: yes(after <= before * 1.1),
    });
  }
  return { results, goals };
}
