import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import { recipientsCsv } from '../../shared/broadcast/list-recipients';
import { isCampaignIdShape } from '../../shared/campaigns/campaign';
import { campaignRecipientsQuerySchema, listCampaignRecipients as readRecipients } from '../../shared/campaigns/campaign-recipients';
import { CampaignNotFoundError } from '../../shared/campaigns/errors';
import type { BroadcastStatusPorts, CampaignReadPorts } from './broadcast-status.composition';

/** GET /campaigns/{campaignId}/recipients: the job list's pages; `format=csv` one page per request, the next cursor in `X-Next-Cursor`. */
export const listCampaignRecipients = httpOperation(
  'broadcast-api-key',
  async (request, { broadcasts, campaigns, clock, unconfirmedAfterMs, rateCards }: BroadcastStatusPorts & CampaignReadPorts) => {
    const campaignId = request.pathParameters.campaignId ?? '';
    if (!isCampaignIdShape(campaignId)) throw new CampaignNotFoundError(campaignId);
    const query = parseRequest(campaignRecipientsQuerySchema, request.query, 'query');
    const page = await readRecipients({ campaigns, broadcasts, rateCards }, request.caller, campaignId, query, { now: clock.now(), unconfirmedAfterMs });
    if (query.format !== 'csv') return { statusCode: 200, body: broadcastEnvelope(200, `${page.recipients.length} recipients`, page) };
    const headers: Record<string, string> = {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${campaignId}-recipients.csv"`,
    };
    if (page.nextCursor !== null) headers['X-Next-Cursor'] = page.nextCursor;
    return { statusCode: 200, headers, body: null, textBody: recipientsCsv(page.recipients) };
  },
);
