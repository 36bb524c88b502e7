/**
 * A campaign's recipients (GET /campaigns/{campaignId}/recipients; docs/CAMPAIGNS.md "Recipients and
 * follow-ups"): its job's recipients list (list-recipients.ts), the same rows, statuses and filter,
 * across the whole campaign. A campaign's job may hold millions of recipients, so every page (JSON or
 * CSV) reads at most CAMPAIGN_PAGE_MAX_CHUNKS chunks and says where to go on; the CSV is one page per
 * request, the next page's cursor in `X-Next-Cursor`. A campaign not launched has no recipients yet.
 */
import * as v from 'valibot';
import { RECIPIENT_STATUSES } from '../delivery/recipient-status';
import { listRecipients, RECIPIENTS_PAGE_DEFAULT, RECIPIENTS_PAGE_MAX, type RecipientsPage } from '../broadcast/list-recipients';
import type { ScopedCaller } from '../broadcast/key-scope';
import type { StatusReading } from '../broadcast/get-job-status';
import type { JobStore, RecipientLedger } from '../broadcast/ports';
import type { RateCardSource } from '../pricing/rate-card';
import { readableCampaign } from './campaign-access';
import type { CampaignStore } from './ports';

/** Rows of one CSV page at most (10 chunks): about 3 MB read and 1.5 MB answered, well inside a response. */
export const CAMPAIGN_CSV_PAGE_MAX = 10_000;
/** Chunks one page reads at most (20,000 recipients): a filter matching few never reads the whole campaign in one request. */
export const CAMPAIGN_PAGE_MAX_CHUNKS = 20;

const limitRule = `must be a whole number from 1 to ${RECIPIENTS_PAGE_MAX} (${CAMPAIGN_CSV_PAGE_MAX} with format=csv)`;

/** The query: the job list's (`status`, `limit`, `cursor`, `format`), a CSV page up to 10,000 rows. */
export const campaignRecipientsQuerySchema = v.pipe(
  v.object({
    status: v.optional(v.picklist(RECIPIENT_STATUSES, `must be one of ${RECIPIENT_STATUSES.join(', ')}`)),
    limit: v.optional(
      v.pipe(v.string(), v.regex(/^\d{1,5}$/, limitRule), v.transform(Number), v.minValue(1, limitRule), v.maxValue(CAMPAIGN_CSV_PAGE_MAX, limitRule)),
    ),
    cursor: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,512}$/, 'must be a nextCursor returned by this endpoint'))),
    format: v.optional(v.picklist(['json', 'csv'], 'must be json or csv')),
  }),
  v.forward(
    v.check((query) => query.format === 'csv' || query.limit === undefined || query.limit <= RECIPIENTS_PAGE_MAX, limitRule),
    ['limit'],
  ),
);
export type CampaignRecipientsQuery = v.InferOutput<typeof campaignRecipientsQuerySchema>;

export interface CampaignRecipientsPorts {
  campaigns: Pick<CampaignStore, 'getCampaign'>;
  broadcasts: JobStore & RecipientLedger;
  rateCards?: RateCardSource;
}

/**
 * One page of the campaign's recipients (the CSV's too): the job list's rows.
 *
 * @example
 * await listCampaignRecipients(ports, caller, 'cmp_1', { status: 'FAILED' }, reading); // { recipients: [...], nextCursor: '…' | null }
 */
export async function listCampaignRecipients(
  ports: CampaignRecipientsPorts,
  caller: ScopedCaller,
  campaignId: string,
  query: CampaignRecipientsQuery,
  reading: StatusReading,
): Promise<RecipientsPage> {
  const campaign = await readableCampaign(ports.campaigns, caller, campaignId);
  if (campaign.jobId === undefined) return { recipients: [], nextCursor: null };
  const limit = query.limit ?? (query.format === 'csv' ? CAMPAIGN_CSV_PAGE_MAX : RECIPIENTS_PAGE_DEFAULT);
  return listRecipients(
    ports.broadcasts,
    caller,
    campaign.jobId,
    { status: query.status, limit, cursor: query.cursor, maxChunks: CAMPAIGN_PAGE_MAX_CHUNKS },
    reading,
    ports.rateCards,
  );
}
