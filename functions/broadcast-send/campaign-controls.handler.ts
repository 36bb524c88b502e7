/** POST /campaigns/{campaignId}/pause, /resume and /cancel: the campaign's job's controls (docs/CAMPAIGNS.md "Pause, resume and cancel"). */
import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { isCampaignIdShape } from '../../shared/campaigns/campaign';
import { cancelCampaign as cancel, pauseCampaign as pause, resumeCampaign as resume, type CampaignControlView } from '../../shared/campaigns/campaign-controls';
import { CampaignNotFoundError } from '../../shared/campaigns/errors';
import type { CampaignControlPorts } from '../../shared/campaigns/campaign-controls';
import type { StatusReading } from '../../shared/broadcast/get-job-status';
import type { ScopedCaller } from '../../shared/broadcast/key-scope';
import type { CampaignControlDependencies } from './broadcast-send.composition';

type Control = (ports: CampaignControlPorts, caller: ScopedCaller, campaignId: string, reading: StatusReading) => Promise<CampaignControlView>;

const campaignControl = (control: Control) =>
  httpOperation(
    'broadcast-api-key',
    async (request, { broadcasts, campaigns, events, expansions, scheduling, clock, unconfirmedAfterMs }: CampaignControlDependencies) => {
      const campaignId = request.pathParameters.campaignId ?? '';
      if (!isCampaignIdShape(campaignId)) throw new CampaignNotFoundError(campaignId);
      const view = await control({ broadcasts, campaigns, events, expansions, scheduling }, request.caller, campaignId, {
        now: clock.now(),
        unconfirmedAfterMs,
      });
      return { statusCode: 200, body: broadcastEnvelope(200, `Campaign is ${view.state}`, view) };
    },
  );

export const pauseCampaign = campaignControl(pause);
export const resumeCampaign = campaignControl(resume);
export const cancelCampaign = campaignControl(cancel);
