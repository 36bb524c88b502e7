/**
 * One expansion page becomes one chunk of the campaign's job (docs/CAMPAIGNS.md "How a campaign
 * runs", "Exactly once"). The page's candidates (expansion-members.ts) are claimed for the campaign
 * with the page's first index as the mark: a person whose claim holds that mark is this page's (this
 * run claimed them, or an earlier run of the same page did); any other mark is a person an earlier
 * page met (a duplicate). The page's people get the indexes `pageStart + 0, 1, …` in page order, the
 * same on every run of the page, so a redelivery or a crash mid-page sends nobody twice: the
 * recipient ledger holds each index once.
 *
 * Each person is then filled (renderMemberSend), checked against the template as a broadcast's
 * recipient is, and checked against the opt-out list; the skipped are listed FAILED with their reason.
 * Of those left, the campaign's holdout (campaign-holdout.ts) is drawn: listed HELD_OUT, never
 * queued, so they reserve no messaging limit; the rest are the chunk's sends.
 */
import type { ChunkRecipient } from '../broadcast/chunk-message';
import { withMemberTimeZone } from '../send-rules/recipient-time-zone';
import { TemplateParameterCountError } from '../broadcast/errors';
import type { JobRecipient, LedgerEntry, SuppressionList } from '../broadcast/ports';
import { recipientResolver } from '../broadcast/broadcast-content';
import { withoutOptedOut } from '../broadcast/send-template-broadcast';
import type { TemplateBroadcastRequest } from '../broadcast/template-broadcast.schema';
import { INVALID_PARAMETER, MISSING_ATTRIBUTE } from '../sending/failure-reasons';
import { TemplateContentError } from '../templates/errors';
import type { TemplateRequirements } from '../templates/template-requirements';
import type { ExpansionCounts } from './campaign';
import { isHeldOut, type CampaignHoldout } from './campaign-holdout';
import { renderMemberSend, type CampaignValues } from './campaign-values';
import type { Candidate } from './expansion-members';
import type { PersonClaims } from './ports';

export interface PagePorts {
  claims: PersonClaims;
  optOuts: SuppressionList;
}

/** A member drawn into the campaign's holdout: their ledger entry (HELD_OUT) and every key their inbound messages may come from. */
export interface HeldOutMember {
  entry: LedgerEntry;
  personKeys: string[];
}

/** What the page adds to the job: its chunk's recipients (to queue), the skipped (listed FAILED), the held out and the list of all. */
export interface PageChunk {
  recipients: ChunkRecipient[];
  skipped: LedgerEntry[];
  /** Never sent (the campaign's holdout): listed HELD_OUT. */
  heldOut: HeldOutMember[];
  /** Every person of the chunk, by index (consecutive from `pageStart`), as the recipients list shows them. */
  listed: JobRecipient[];
}

export interface PageSending {
  campaignId: string;
  organizationId: string;
  values: CampaignValues;
  templateName: string;
  requirements: TemplateRequirements;
  /** The chunk's first index: a multiple of the chunk size, the mark of this page's claims. */
  pageStart: number;
  now: Date;
  /** The campaign's holdout; absent: everyone sendable is sent. */
  holdout?: CampaignHoldout;
}

/**
 * The page's people (claimed for it), filled, checked and split into sends and skips; `counts`
 * gets the duplicates, the skipped by reason and the sendable.
 *
 * @example
 * const chunk = await chunkOfPage(ports, sending, candidates, counts); // { recipients, skipped, listed }
 */
export async function chunkOfPage(ports: PagePorts, sending: PageSending, candidates: readonly Candidate[], counts: ExpansionCounts): Promise<PageChunk> {
  const held =
    candidates.length === 0
      ? new Map<string, number>()
      : await ports.claims.claimPersons(
          sending.campaignId,
          candidates.map(({ person }) => ({ personKey: person, index: sending.pageStart })),
        );
  const ours = candidates.filter(({ person }) => held.get(person) === sending.pageStart);
  counts.duplicates += candidates.length - ours.length;
  const check = memberCheck(sending);
  const filled: ChunkRecipient[] = [];
  const skipped: LedgerEntry[] = [];
  const listed: JobRecipient[] = [];
  const personOf = new Map<number, Candidate>();
  ours.forEach((candidate, rank) => {
    const { member } = candidate;
    const index = sending.pageStart + rank;
    const result = check(member, index);
    const address =
      member.userId !== undefined && member.countryCode === ''
        ? { countryCode: '', toPhoneNumber: '', userId: member.userId }
        : { countryCode: member.countryCode, toPhoneNumber: member.toPhoneNumber };
    if ('reason' in result) {
      skipped.push(failed(index, member.to, result.reason, sending.now));
      counts[result.reason === MISSING_ATTRIBUTE ? 'missingAttribute' : 'invalid'] += 1;
      listed.push({ index, ...address });
      return;
    }
    filled.push(result);
    personOf.set(index, candidate);
    listed.push({
      index,
      ...address,
      send: result.content === undefined ? { parameters: result.parameters } : { parameters: result.parameters, content: result.content },
    });
  });
  const { queued, refused } = await withoutOptedOut(ports.optOuts, sending.organizationId, filled, sending.now);
  counts.optedOut += refused.length;
  const { recipients, heldOut } = drawHoldout(sending, queued, personOf);
  counts.sendable += recipients.length;
  counts.heldOut += heldOut.length;
  return { recipients, skipped: [...skipped, ...refused].sort((a, b) => a.index - b.index), heldOut, listed };
}

/**
 * The sendable split by the campaign's draw: drawn after every check, so the held-out group is a
 * sample of the people who would have been sent (opted-out and unfillable members are in neither).
 */
function drawHoldout(
  sending: PageSending,
  queued: ChunkRecipient[],
  personOf: ReadonlyMap<number, Candidate>,
): { recipients: ChunkRecipient[]; heldOut: HeldOutMember[] } {
  if (sending.holdout === undefined) return { recipients: queued, heldOut: [] };
  const recipients: ChunkRecipient[] = [];
  const heldOut: HeldOutMember[] = [];
  for (const recipient of queued) {
    const candidate = personOf.get(recipient.index)!;
    if (!isHeldOut(sending.holdout, sending.campaignId, candidate.person)) {
      recipients.push(recipient);
      continue;
    }
    const entry: LedgerEntry = { index: recipient.index, to: recipient.to, status: 'HELD_OUT', attempts: 0, updatedAt: sending.now.toISOString() };
    heldOut.push({ entry, personKeys: personKeysOf(candidate) });
  }
  return { recipients, heldOut };
}

/** The keys a person's inbound message may arrive under: the number as sent, its opt-out form (the person), the BSUID when known. */
const personKeysOf = ({ member, person }: Candidate): string[] => [
  ...new Set([member.to, person, member.userId].filter((key): key is string => key !== undefined && key !== '')),
];

const failed = (index: number, to: string, reason: string, now: Date): LedgerEntry => ({
  index,
  to,
  status: 'FAILED',
  failureReasonCode: reason,
  attempts: 0,
  updatedAt: now.toISOString(),
});

/**
 * One member's send, filled from their attributes and checked as the broadcast checks a recipient's
 * own values against the template (count, names, header, buttons, carousel, offer); else the reason
 * they are skipped.
 */
export function memberCheck(sending: PageSending): (member: Candidate['member'], index: number) => ChunkRecipient | { reason: string } {
  // The broadcast's per-recipient rules read only the template's name from the request (for their messages).
  const request = { templateName: sending.templateName, data: [] } as Pick<TemplateBroadcastRequest, 'templateName' | 'data'> as TemplateBroadcastRequest;
  const resolve = recipientResolver(request, sending.requirements, sending.now);
  return (member, index) => {
    const send = renderMemberSend(sending.values, member);
    if ('skipped' in send) return { reason: send.skipped === 'MISSING_ATTRIBUTE' ? MISSING_ATTRIBUTE : INVALID_PARAMETER };
    try {
      const recipient = resolve({ templateParams: send.parameters, ...send.content } as TemplateBroadcastRequest['data'][number], index, member.to);
      // The member's own zone rides with the recipient for the send window (docs/CAMPAIGNS.md "Send windows").
      return { ...recipient, ...withMemberTimeZone(member.attributes) };
    } catch (error) {
      if (error instanceof TemplateParameterCountError || error instanceof TemplateContentError) return { reason: INVALID_PARAMETER };
      throw error;
    }
  };
}
