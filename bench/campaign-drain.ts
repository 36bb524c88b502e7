/**
 * Campaign bench, part 5: a `members`-member campaign (default 100,000) drained through the sandbox
 * at 1,000/s (the account's pace and the sandbox's throughput for its number), every queue consumer
 * of the contract running, in `threads` isolation as `npm start` runs them (the emulators and each
 * function in threads of their own: both cores, docs/PERFORMANCE.md "4f"). The audience is seeded through the
 * store (lib/campaign-workload.ts). Figures: the sandbox's messages of the number: one per person
 * (duplicates = messages - distinct recipients), no one missing (members without a message), the
 * achieved rate (first to last `receivedAt`), and the campaign's own `totals.sent` read back
 * through GET /campaigns/{id} once the consumers are idle.
 */
import { awaitAccepted } from './lib/await-accepted';
import { withBenchRuntime } from './lib/bench-runtime';
import { audienceStoreOf } from './lib/campaign-stores';
import { campaignBody, memberRecipients, seededAudience } from './lib/campaign-workload';

export interface CampaignDrainResult {
  members: number;
  seedSeconds: number;
  completed: boolean;
  stalled: boolean;
  messages: number;
  duplicates: number;
  missing: number;
  achievedPerSecond: number;
  /** Launch answered -> the first message at the sandbox. */
  firstMessageAfterMs: number;
  wallSeconds: number;
  campaign: { state: string; sent: number; failed: number; sendable: number };
}

const RATE = 1000;

export async function benchCampaignDrain(options: { members: number; log: (line: string) => void }): Promise<CampaignDrainResult> {
  return withBenchRuntime({ isolation: 'threads', consumers: 'all', sandboxRate: RATE }, async (bench) => {
    const { tenant, api } = await bench.tenant(640, RATE);
    options.log(`  drain: seeding ${options.members.toLocaleString('en-US')} members`);
    const { audienceId, seedSeconds } = await seededAudience(api, audienceStoreOf(bench.services), tenant, 44, options.members, options.log);
    const { campaignId } = (await api.createCampaign(campaignBody(tenant, [audienceId], 'bench drain'))).data;
    const started = performance.now();
    await api.launch(campaignId);
    const launchedAt = performance.now();
    const wait = await awaitAccepted({
      acceptedSoFar: () => bench.sentFrom(tenant.phoneNumberId),
      expected: options.members,
      deadline: started + ((options.members / RATE) * 3 + 150) * 1000,
      // The first message waits for the expander's first page (a claim per person): no stall before 2 minutes.
      stallMs: 120_000,
      pollMs: 1_000,
    });
    if (!wait.stalled) await bench.consumers.idle();
    const wallSeconds = (performance.now() - started) / 1000;
    const messages = bench.sandbox.acceptedMessages().filter((message) => message.phoneNumberId === tenant.phoneNumberId);
    const received = new Set(messages.map((message) => message.recipient));
    const missing = memberRecipients(44, options.members).filter((recipient) => !received.has(recipient)).length;
    // A loop, not Math.max(...times): 100,000 arguments overflow the stack.
    let first = Infinity;
    let last = -Infinity;
    for (const message of messages) {
      const at = Date.parse(message.receivedAt);
      first = Math.min(first, at);
      last = Math.max(last, at);
    }
    const span = messages.length > 1 ? (last - first) / 1000 : Number.NaN;
    const view = (await api.getCampaign(campaignId)).data;
    const result: CampaignDrainResult = {
      members: options.members,
      seedSeconds,
      completed: wait.completed,
      stalled: wait.stalled,
      messages: messages.length,
      duplicates: messages.length - received.size,
      missing,
      achievedPerSecond: (messages.length - 1) / span,
      firstMessageAfterMs: (wait.firstMessageAt ?? Number.NaN) - launchedAt,
      wallSeconds,
      campaign: { state: view.state, sent: view.totals.sent, failed: view.totals.failed, sendable: view.totals.sendable },
    };
    options.log(
      `  drain: ${result.messages}/${options.members} messages, dup ${result.duplicates}, missing ${missing}, ${result.achievedPerSecond.toFixed(0)}/s, ` +
        `campaign ${view.state} sent ${view.totals.sent} in ${wallSeconds.toFixed(1)} s`,
    );
    return result;
  });
}
