/**
 * 131049 failures of a parent that another follow-up of the same parent already re-sent
 * (docs/BROADCAST.md "131049"): the re-send count lives down each follow-up chain, so a second
 * follow-up made from the same parent would start from the parent's count again. Such recipients
 * are left out (counted in `audience.alreadyResent`): follow up from the later job, where the count
 * and the latest failure are.
 *
 * Read only when the audience holds 131049 failures: the organization's jobs created since the
 * earliest such failure (a re-send always follows its failure; at most MAX_JOBS_EXAMINED of them,
 * newest first), those with `followUpOf` = the parent, and their recipients (one read per chunk).
 */
import type { BroadcastJob } from './broadcast-job';
import type { JobStore, RecipientLedger } from './ports';
import type { MatchedRecipient } from './follow-up-audience';
import { PER_USER_LIMIT_CODE } from './follow-up-audience';
import { phoneNumberOfParts } from '../recipients/phone-number';

/** Jobs of the organization looked at, at most (newest first). */
const MAX_JOBS_EXAMINED = 500;
const PAGE = 100;

async function siblingsOf(broadcasts: JobStore, organizationId: string, parentId: string, since: string): Promise<BroadcastJob[]> {
  const siblings: BroadcastJob[] = [];
  let after: Parameters<JobStore['listJobsOfOrganization']>[1]['after'];
  for (let examined = 0; examined < MAX_JOBS_EXAMINED; examined += PAGE) {
    const page = await broadcasts.listJobsOfOrganization(organizationId, { from: since, limit: PAGE, ...(after && { after }) });
    siblings.push(...page.jobs.filter((job) => job.kind === 'template' && job.followUpOf === parentId));
    if (!page.next) break;
    after = page.next;
  }
  return siblings;
}

/**
 * The keys of `matched`'s 131049 failures a follow-up of the same parent (created since the
 * earliest of them) re-sent already.
 *
 * @example
 * await resentBySiblings(broadcasts, 'org_1', 'pub_parent', matched); // Set { '12025550123' } when pub_other (followUpOf pub_parent) re-sent it
 */
export async function resentBySiblings(
  broadcasts: JobStore & RecipientLedger,
  organizationId: string,
  parentId: string,
  matched: readonly MatchedRecipient[],
): Promise<Set<string>> {
  const failures = matched.filter((recipient) => recipient.failureReasonCode === PER_USER_LIMIT_CODE && recipient.failedAt !== undefined);
  if (failures.length === 0) return new Set();
  const since = failures.map(({ failedAt }) => failedAt!).sort()[0]!;
  const wanted = new Set(failures.map(({ to }) => to));
  const resent = new Set<string>();
  for (const sibling of await siblingsOf(broadcasts, organizationId, parentId, since)) {
    for (let chunkIndex = 0; chunkIndex < sibling.totalChunks; chunkIndex += 1) {
      const { listed = [] } = await broadcasts.readChunkRecipients(sibling.jobId, chunkIndex);
      for (const recipient of listed) {
        if ((recipient.perUserLimitResends ?? 0) === 0) continue;
        const key = recipient.userId ?? phoneNumberOfParts(recipient.countryCode, recipient.toPhoneNumber);
        if (key && wanted.has(key)) resent.add(key);
      }
    }
  }
  return resent;
}
