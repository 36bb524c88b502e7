/**
 * Who of a job a follow-up reaches (docs/BROADCAST.md "Follow-ups"): the parent's recipients read
 * chunk by chunk from the ledger, each judged by the status the recipients list shows
 * (`recipientRow`), the times Meta's facts give and the recipient's outcomes (replied, clicked,
 * buttons tapped). Every condition the audience gives must hold (they narrow each other: `FAILED` +
 * `[131049]` is the 131049 failures, `READ` + `replied: false` who read and did not reply).
 */
import type { FollowUpAudience } from './follow-up.schema';
import { recipientRow } from './list-recipients';
import type { StatusReading } from './get-job-status';
import type { BroadcastJob } from './broadcast-job';
import type { ChunkRecipientRecords, JobRecipient, RecipientLedger } from './ports';
import { isBusinessScopedUserId } from '../recipients/business-scoped-user-id';
import type { OutcomeFacts } from '../outcomes/outcome-facts';

/** Meta's per-user marketing limit: a follow-up re-sends its failures by the rule of per-user-limit-resends.ts. */
export const PER_USER_LIMIT_CODE = '131049';

/** A recipient of the parent job the audience matched. */
export interface MatchedRecipient {
  listed: JobRecipient;
  /** The recipient's key (a number's digits or a business-scoped user id), as its ledger entry has it. */
  to: string;
  /** When a FAILED recipient failed: Meta's time for a webhook failure, the ledger's for a refused call. */
  failedAt?: string;
  failureReasonCode?: string;
}

const HOUR_MS = 3_600_000;

const listedOfKey = (index: number, to: string): JobRecipient =>
  isBusinessScopedUserId(to) ? { index, countryCode: '', toPhoneNumber: '', userId: to } : { index, countryCode: '', toPhoneNumber: to };

function matchesAudience(
  audience: FollowUpAudience,
  row: ReturnType<typeof recipientRow>,
  sentAt: string | undefined,
  reading: StatusReading,
  outcomes: OutcomeFacts | undefined,
): boolean {
  // A campaign's held-out member was never sent (their inbound messages count for the lift): no follow-up reaches them.
  if (row.status === 'HELD_OUT') return false;
  if (audience.statuses && !(audience.statuses as readonly string[]).includes(row.status)) return false;
  if (audience.failureCodes) {
    if (row.status !== 'FAILED' || row.failureReasonCode === null) return false;
    if (!audience.failureCodes.some((code) => String(code) === row.failureReasonCode)) return false;
  }
  if (audience.notReadAfterHours !== undefined) {
    if (row.status !== 'SENT' && row.status !== 'DELIVERED') return false;
    if (sentAt === undefined || Date.parse(sentAt) > reading.now.getTime() - audience.notReadAfterHours * HOUR_MS) return false;
  }
  return matchesOutcomes(audience, outcomes);
}

/** The outcome conditions (docs/OUTCOMES.md "Where it shows"), each only when given; a payload matches any button the recipient tapped. */
function matchesOutcomes(audience: FollowUpAudience, outcomes: OutcomeFacts | undefined): boolean {
  if (audience.replied !== undefined && (outcomes?.repliedAt !== undefined) !== audience.replied) return false;
  if (audience.clicked !== undefined && (outcomes?.clicks ?? 0) > 0 !== audience.clicked) return false;
  if (audience.buttonPayloads && !(outcomes?.buttonTaps ?? []).some(({ payload }) => audience.buttonPayloads!.includes(payload))) return false;
  return true;
}

/** The matching recipients of one chunk, in index order (only recipients with a ledger entry were ever sent or refused). */
export function matchingOfChunk(records: ChunkRecipientRecords, audience: FollowUpAudience, reading: StatusReading): MatchedRecipient[] {
  const listedByIndex = new Map((records.listed ?? []).map((listed) => [listed.index, listed]));
  const matched: MatchedRecipient[] = [];
  for (const record of records.ledger) {
    const { entry, facts } = record;
    // Jobs recorded before their recipients were kept name each by its ledger key (a number or a user id).
    const listed = listedByIndex.get(entry.index) ?? listedOfKey(entry.index, entry.to);
    const row = recipientRow(listed, record, reading);
    if (!matchesAudience(audience, row, facts.sentAt ?? (entry.status === 'SENT' ? entry.updatedAt : undefined), reading, records.outcomes?.get(entry.index)))
      continue;
    const failed = row.status === 'FAILED' ? { failedAt: facts.failedAt ?? entry.updatedAt, failureReasonCode: row.failureReasonCode ?? undefined } : {};
    matched.push({ listed, to: entry.to, ...failed });
  }
  return matched;
}

/** Chunks read at once (a 10,000-recipient parent: 10 chunks in 3 rounds), as the CSV export reads them. */
const READ_CONCURRENCY = 4;

/**
 * Every recipient of `job` the audience matches, in index order; with `stopAfter`, the reading stops
 * at the first round of chunks that brings the matches beyond it (the caller refuses that many).
 *
 * @example
 * await matchingRecipients(broadcasts, job, { statuses: ['FAILED'], failureCodes: [131049] }, reading); // [{ listed, to: '447700900001', failureReasonCode: '131049', failedAt: '…' }]
 */
export async function matchingRecipients(
  ledger: RecipientLedger,
  job: BroadcastJob,
  audience: FollowUpAudience,
  reading: StatusReading,
  stopAfter = Number.POSITIVE_INFINITY,
): Promise<MatchedRecipient[]> {
  const matched: MatchedRecipient[] = [];
  for (let start = 0; start < job.totalChunks && matched.length <= stopAfter; start += READ_CONCURRENCY) {
    const chunkIndexes = Array.from({ length: Math.min(READ_CONCURRENCY, job.totalChunks - start) }, (_, offset) => start + offset);
    const batch = await Promise.all(chunkIndexes.map((chunkIndex) => ledger.readChunkRecipients(job.jobId, chunkIndex)));
    for (const records of batch) matched.push(...matchingOfChunk(records, audience, reading));
  }
  return matched;
}
