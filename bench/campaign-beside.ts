/**
 * Campaign bench, part 6: a campaign slows no one else. The `--only=fifth` measurement
 * (bench/fifth-organization.ts: four organizations' accounts drain at 80/s at Meta's latency while
 * a fifth sends one message a second; its request -> sandbox p50 / p99) run twice: as it is, then
 * with a sixth organization's `members`-member campaign (default 100,000, account and sandbox at
 * 1,000/s) launched as the drains start, its expander fed by its own queue and its chunks on the
 * same outbound queue and chunk worker as everyone's. When the four drains end the campaign is
 * cancelled (what it sent by then is reported) so the run does not wait for the rest.
 * Goal: the fifth organization's p99 with the campaign no worse than without it (within 10 %).
 */
import type { DrainAlongside } from './drain';
import { benchFifthOrganization, type FifthOrganizationResult } from './fifth-organization';
import { startLocalEventSources, type LocalEventSources } from '../local/local-event-sources';
import { CampaignApi } from './lib/campaign-api';
import { audienceStoreOf } from './lib/campaign-stores';
import { campaignBody, seededAudience } from './lib/campaign-workload';
import { createBenchTenant, issueKey, type BenchTenant } from './lib/workload';

export interface CampaignBesideResult {
  members: number;
  launchMs: number;
  /** The campaign's messages at the sandbox when the four drains ended, and their rate since the launch. */
  sentDuringDrain: number;
  perSecondDuringDrain: number;
  stateAtEnd: string;
}

const RATE = 1000;

/** Another organization's campaign beside a drain (drain.ts `DrainAlongside`). */
export function campaignBeside(members: number, log: (line: string) => void): DrainAlongside & { result(): CampaignBesideResult | undefined } {
  let tenant: BenchTenant | undefined;
  let api: CampaignApi | undefined;
  let campaignId = '';
  let expander: LocalEventSources | undefined;
  let context: Parameters<DrainAlongside['prepare']>[0] | undefined;
  let result: CampaignBesideResult | undefined;
  const sentSoFar = () => context!.sandbox.acceptedMessages().filter((message) => message.phoneNumberId === tenant!.phoneNumberId).length;
  return {
    async prepare(prepared) {
      context = prepared;
      const { services, sandbox, runtime } = prepared;
      tenant = await createBenchTenant(services, sandbox, 650, RATE);
      sandbox.configure({ throughputByPhoneNumberId: { [tenant.phoneNumberId]: RATE } });
      api = new CampaignApi(prepared.baseUrl, await issueKey(services, tenant.organizationId));
      log(`  beside: seeding a ${members.toLocaleString('en-US')}-member audience for the campaign`);
      const { audienceId } = await seededAudience(api, audienceStoreOf(services), tenant, 45, members, log);
      campaignId = (await api.createCampaign(campaignBody(tenant, [audienceId], 'bench beside'))).data.campaignId;
      expander = await startLocalEventSources({
        sqs: runtime.sqs,
        region: services.config.region,
        environment: process.env,
        handlerOf: runtime.functionHandler,
        only: ['campaign-expander'],
      });
    },
    async start(drainEnded) {
      const launched = performance.now();
      const launchMs = (await api!.launch(campaignId)).ms;
      await drainEnded;
      const sentDuringDrain = sentSoFar();
      const seconds = (performance.now() - launched) / 1000;
      const stateAtEnd = (await api!.cancel(campaignId)).data.state;
      await expander?.stop();
      result = { members, launchMs, sentDuringDrain, perSecondDuringDrain: sentDuringDrain / seconds, stateAtEnd };
      log(`  beside: the campaign sent ${sentDuringDrain} messages during the drains (${result.perSecondDuringDrain.toFixed(0)}/s), then ${stateAtEnd}`);
      return result;
    },
    result: () => result,
  };
}

export interface CampaignFairnessResult {
  without: FifthOrganizationResult | undefined;
  with: FifthOrganizationResult | undefined;
  campaign: CampaignBesideResult | undefined;
  /** The four drains' aggregate fraction of their configured rate, without and with. */
  drainFractions: [number, number];
}

export async function benchCampaignFairness(options: {
  totalRecipients: number;
  members: number;
  log: (line: string) => void;
}): Promise<CampaignFairnessResult> {
  const without = await benchFifthOrganization({ totalRecipients: options.totalRecipients, log: options.log });
  const campaign = campaignBeside(options.members, options.log);
  const withCampaign = await benchFifthOrganization({
    totalRecipients: options.totalRecipients,
    log: options.log,
    beside: { label: `another organization's ${options.members.toLocaleString('en-US')}-member campaign at ${RATE}/s`, work: campaign },
  });
  return {
    without: without.fifth,
    with: withCampaign.fifth,
    campaign: campaign.result(),
    drainFractions: [without.drain.runs[0]?.aggregate.fraction ?? Number.NaN, withCampaign.drain.runs[0]?.aggregate.fraction ?? Number.NaN],
  };
}
