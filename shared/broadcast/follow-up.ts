/**
 * Follow-ups (POST /broadcasts/{jobId}/follow-up; docs/BROADCAST.md "Follow-ups"): a new template
 * broadcast to the parent job's recipients the audience matches, each with the values they were
 * sent unless the body gives new ones. `buildFollowUpRequest` makes the broadcast request (what the
 * dry run checks as it is); `followUpBroadcast` hands it to the accept of send-template-broadcast,
 * so every rule, the messaging limit and the opt-out check are that accept's.
 */
import {
  payloadHashOf,
  acceptTemplateBroadcast,
  type BroadcastCaller,
  type SendTemplateBroadcastDependencies,
  type SendTemplateBroadcastResult,
} from './send-template-broadcast';
import { FollowUpAudienceError, FollowUpTooSoonError } from './errors';
import type { FollowUpRequest } from './follow-up.schema';
import { matchingRecipients, type MatchedRecipient } from './follow-up-audience';
import { judgeResends, resendsAfter, tooSoonMessage } from './per-user-limit-resends';
import { resentBySiblings } from './follow-up-siblings';
import { readableJob, type StatusReading } from './get-job-status';
import { requireOperationInScope, requireSenderInScope } from './key-scope';
import type { Clock, JobStore, RecipientLedger, SuppressionList } from './ports';
import type { BroadcastJob } from './broadcast-job';
import { MAX_RECIPIENTS, type RecipientInput, type TemplateBroadcastRequest } from './template-broadcast.schema';
import type { TemplateContent } from '../templates/template-content.schema';

/**
 * A follow-up is one broadcast request: it reaches at most MAX_RECIPIENTS (10,000) recipients. Jobs
 * never have more; a campaign's job may (docs/CAMPAIGNS.md "Recipients and follow-ups").
 */
export const FOLLOW_UP_MAX_RECIPIENTS = MAX_RECIPIENTS;
/** A parent of more recipients is not read within one request (100 chunks, 25 rounds of reads): refused. */
export const FOLLOW_UP_MAX_PARENT_RECIPIENTS = 100_000;

/** What building a follow-up reads: the parent job and its ledger, the opt-out list, the time. */
export interface FollowUpBuildPorts {
  broadcasts: JobStore & RecipientLedger;
  optOuts: SuppressionList;
  clock: Clock;
}

export interface FollowUpBuildInput {
  caller: BroadcastCaller;
  /** The parent job. */
  jobId: string;
  body: FollowUpRequest;
  /** After how long an unknown outcome reads UNCONFIRMED (as the recipients list reads it). */
  unconfirmedAfterMs: number;
}

/**
 * Who the follow-up reached: `matched` recipients of the parent, of them `optedOut` left out (on the
 * opt-out list now) and `resendCapped` left out (re-sent after 131049 as often as allowed; only when some were).
 */
export interface FollowUpAudienceCounts {
  matched: number;
  optedOut: number;
  resendCapped?: number;
  /** 131049 failures another follow-up of the same parent re-sent already (follow-up-siblings.ts); only when some were. */
  alreadyResent?: number;
}

export interface BuiltFollowUp {
  request: TemplateBroadcastRequest;
  audience: FollowUpAudienceCounts;
  /** Each of `request.data`'s recipients' 131049 re-sends with this one (per-user-limit-resends.ts), kept with the new job's recipients. */
  perUserLimitResends: number[];
}

/** The parts of a recipient's own content the follow-up's body does not give (the body's win: they are the new values). */
function keptContent(own: TemplateContent | undefined, body: FollowUpRequest): TemplateContent {
  if (!own) return {};
  const kept: TemplateContent = {};
  if (own.header && !body.header) kept.header = own.header;
  if (own.buttons && !body.buttons) kept.buttons = own.buttons;
  if (own.carousel && !body.carousel) kept.carousel = own.carousel;
  if (own.limitedTimeOffer && !body.limitedTimeOffer) kept.limitedTimeOffer = own.limitedTimeOffer;
  return kept;
}

/** A matched recipient as a broadcast request's `data` item: its address, its values unless the body gives new ones. */
function recipientOf({ listed }: MatchedRecipient, body: FollowUpRequest): RecipientInput {
  const address = listed.userId === undefined ? { countryCode: listed.countryCode, toPhoneNumber: listed.toPhoneNumber } : { userId: listed.userId };
  const parameters = body.globalTemplateParams === undefined && listed.send ? { templateParams: listed.send.parameters } : {};
  return { ...address, ...parameters, ...keptContent(listed.send?.content, body) } as RecipientInput;
}

/** The matched recipients the 131049 rule lets through; a 4xx when any is within its interval (per-user-limit-resends.ts). */
function withinResendRule(matched: readonly MatchedRecipient[], body: FollowUpRequest, now: Date): { allowed: MatchedRecipient[]; capped: number } {
  const { sendable, capped, tooSoon } = judgeResends(matched, now, body.force === true);
  if (tooSoon.length > 0) throw new FollowUpTooSoonError(tooSoonMessage(tooSoon));
  return { allowed: sendable, capped: capped.length };
}

/** The parent's matching recipients, refused (422) beyond what one follow-up reads or sends. */
async function matchingOfSize(
  ports: FollowUpBuildPorts,
  parent: BroadcastJob,
  audience: FollowUpRequest['audience'],
  reading: StatusReading,
): Promise<MatchedRecipient[]> {
  const exportHint = `export the recipients with that status (GET …/recipients?status=…&format=csv) and send them a broadcast or a campaign`;
  if (parent.totalRecipients > FOLLOW_UP_MAX_PARENT_RECIPIENTS) {
    throw new FollowUpAudienceError(
      `jobId ${parent.jobId} has ${parent.totalRecipients} recipients; a follow-up reads a parent of at most ${FOLLOW_UP_MAX_PARENT_RECIPIENTS}: ${exportHint}; nothing was queued`,
    );
  }
  const matched = await matchingRecipients(ports.broadcasts, parent, audience, reading, FOLLOW_UP_MAX_RECIPIENTS);
  if (matched.length > FOLLOW_UP_MAX_RECIPIENTS) {
    throw new FollowUpAudienceError(
      `audience matches more than ${FOLLOW_UP_MAX_RECIPIENTS} recipients; a follow-up sends at most ${FOLLOW_UP_MAX_RECIPIENTS}: narrow audience (failureCodes, notReadAfterHours), or ${exportHint}; nothing was queued`,
    );
  }
  return matched;
}

/**
 * The broadcast request a follow-up stands for, and who it reaches. Refuses first a key that may not
 * send a template broadcast from the body's sender (403, 401: before any audience is read, so a
 * refusal never depends on who of the parent's recipients is opted out), then a parent of another
 * organization or outside the key's scope (as a status read), a free-form parent, a follow-up
 * reaching nobody, and one to 131049 failures within their re-send interval (24 h, lifted by `force`,
 * then 48 h, 96 h: per-user-limit-resends.ts; 4xx naming the rule). Opted-out recipients and
 * recipients re-sent after 131049 as often as allowed are left out of the request and counted.
 *
 * @example
 * const { request, audience } = await buildFollowUpRequest(ports, { caller, jobId: 'pub_1', body, unconfirmedAfterMs });
 * // audience: { matched: 3, optedOut: 1 }; request.data: the other 2, each with its templateParams
 */
export async function buildFollowUpRequest(ports: FollowUpBuildPorts, input: FollowUpBuildInput): Promise<BuiltFollowUp> {
  const { caller, jobId, body } = input;
  requireOperationInScope(caller, 'send-template-broadcast');
  requireSenderInScope(caller, body.fromPhoneNumber);
  const parent = await readableJob(ports.broadcasts, caller, jobId);
  if (parent.kind === 'freeform') throw new FollowUpAudienceError(`jobId ${jobId} is a free-form message; follow-ups go to template broadcasts and bulk sends`);
  const reading: StatusReading = { now: ports.clock.now(), unconfirmedAfterMs: input.unconfirmedAfterMs };
  const matched = await matchingOfSize(ports, parent, body.audience, reading);
  const resent = await resentBySiblings(ports.broadcasts, caller.organizationId, jobId, matched);
  const { allowed, capped } = withinResendRule(
    matched.filter(({ to }) => !resent.has(to)),
    body,
    reading.now,
  );
  const suppressed =
    allowed.length === 0
      ? new Set<string>()
      : await ports.optOuts.suppressedAmong(
          caller.organizationId,
          allowed.map(({ to }) => to),
        );
  const reached = allowed.filter(({ to }) => !suppressed.has(to));
  if (reached.length === 0) {
    const why =
      matched.length === 0
        ? 'no recipient of the job matches audience'
        : allowed.length === 0
          ? `every one of the ${matched.length} matching recipients was re-sent after 131049 failures as often as allowed, or by another follow-up of this job (follow up from that one)`
          : `every one of the ${allowed.length} matching recipients is on the opt-out list`;
    throw new FollowUpAudienceError(`audience reaches nobody: ${why}; nothing was queued`);
  }
  const { audience: _audience, force: _force, ...broadcast } = body;
  return {
    request: { ...broadcast, data: reached.map((recipient) => recipientOf(recipient, body)) },
    audience: {
      matched: matched.length,
      optedOut: allowed.length - reached.length,
      ...(capped > 0 && { resendCapped: capped }),
      ...(resent.size > 0 && { alreadyResent: resent.size }),
    },
    perUserLimitResends: reached.map(resendsAfter),
  };
}

export type FollowUpResult = SendTemplateBroadcastResult & { followUpOf: string; audience: FollowUpAudienceCounts };

/**
 * Accepts a follow-up: builds its request, then the template broadcast's accept records the job
 * with `followUpOf`. With an Idempotency-Key (the broadcasts' keys: one key names one send) a
 * retry replays the first answer, whatever the parent's recipients have become since.
 *
 * @example
 * await followUpBroadcast(dependencies, caller, { jobId: 'pub_1', body, unconfirmedAfterMs }, { idempotencyKey: 'k1', inProgressTimeoutMs: 30_000 });
 * // { kind: 'job', jobId: 'pub_…', status: 'PROCESSING', …, followUpOf: 'pub_1', audience: { matched: 3, optedOut: 1 } }
 */
export async function followUpBroadcast(
  dependencies: SendTemplateBroadcastDependencies,
  caller: BroadcastCaller,
  input: Omit<FollowUpBuildInput, 'caller'>,
  options: { idempotencyKey?: string; inProgressTimeoutMs: number },
): Promise<FollowUpResult> {
  requireOperationInScope(caller, 'send-template-broadcast');
  requireSenderInScope(caller, input.body.fromPhoneNumber);
  const payloadHash = payloadHashOf({ followUpOf: input.jobId, ...input.body });
  const keyed = options.idempotencyKey === undefined ? undefined : { key: options.idempotencyKey, payloadHash };
  const work = async (): Promise<FollowUpResult> => {
    const { request, audience, perUserLimitResends } = await buildFollowUpRequest(dependencies, { caller, ...input });
    const result = await acceptTemplateBroadcast(dependencies, caller, request, keyed, input.jobId, perUserLimitResends);
    return { ...result, followUpOf: input.jobId, audience };
  };
  if (!keyed) return work();
  return dependencies.idempotency.run(`broadcast#${caller.organizationId}#${keyed.key}`, payloadHash, work, {
    inProgressTimeoutMs: options.inProgressTimeoutMs,
  });
}
