/**
 * The console keeps its own copy of the answers' shapes (console/model/api-types.ts): its compiler
 * has the browser's types only, and the server's modules use Node's (Buffer). This checks, at
 * compile time, that every answer the service builds is assignable to the console's copy, so a
 * change of the API that the console would misread fails `npm run typecheck` here.
 */
import type * as Console from '../../../console/model/api-types';
import type { JobStatus, JobSummary } from '../../../shared/broadcast/broadcast-job';
import type { JobStatusView } from '../../../shared/broadcast/get-job-status';
import type { BroadcastListItem, BroadcastsPage } from '../../../shared/broadcast/list-broadcasts';
import type { RecipientRow, RecipientsPage } from '../../../shared/broadcast/list-recipients';
import type { Campaign, CampaignState } from '../../../shared/campaigns/campaign';
import type { AudienceSpec } from '../../../shared/campaigns/audience-filter';
import type { AudienceSummary, AudienceView } from '../../../shared/audiences/audience-use-cases';
import type { MemberRow, UpsertMembersResult, listMembers } from '../../../shared/audiences/member-use-cases';
import type { CampaignDryRun } from '../../../shared/campaigns/campaign-dry-run';
import type { TemplateView } from '../../../shared/broadcast/list-approved-templates';

type Accepts<Copy, Served extends Copy> = Served;

// Each line fails to compile when the served shape no longer fits the console's reading of it.
export type Checked = [
  Accepts<Console.JobStatus, JobStatus>,
  Accepts<Console.JobSummary, JobSummary>,
  Accepts<Console.JobStatusView, JobStatusView>,
  Accepts<Console.BroadcastListItem, BroadcastListItem>,
  Accepts<Console.BroadcastsPage, BroadcastsPage>,
  Accepts<Console.RecipientRow, RecipientRow>,
  Accepts<Console.RecipientsPage, RecipientsPage>,
  Accepts<Console.CampaignState, CampaignState>,
  Accepts<Console.CampaignView['audience'], AudienceSpec>,
  Accepts<Console.CampaignView['template'], Campaign['template']>,
  // The builder's reads (docs/CONSOLE.md "New campaign", "Audiences", "Templates").
  Accepts<Console.AudienceSummary, AudienceSummary>,
  Accepts<Console.AudienceDetail, AudienceView>,
  Accepts<Console.AudienceMemberRow, MemberRow>,
  Accepts<Console.MembersPage, Awaited<ReturnType<typeof listMembers>>>,
  Accepts<Console.MembersWritten, UpsertMembersResult>,
  Accepts<Console.CampaignDryRunAnswer, CampaignDryRun>,
  Accepts<Console.TemplateView, TemplateView>,
];

describe("the console's copy of the API's shapes", () => {
  it('accepts every job state the service answers', () => {
    const served: JobStatus[] = ['SCHEDULED', 'QUEUED_FOR_PROCESSING', 'PROCESSING', 'PAUSED', 'COMPLETED', 'COMPLETED_WITH_FAILURES', 'FAILED', 'CANCELLED'];
    const consoleCopy: Console.JobStatus[] = served;
    expect(consoleCopy).toHaveLength(8);
  });
});
