/**
 * Follow-ups (POST /broadcasts/{jobId}/follow-up; docs/BROADCAST.md "Follow-ups"): a new template
 * broadcast to the parent job's recipients the audience matches, each with the values they were
 * sent unless the body gives new ones. `buildFollowUpRequest` makes the broadcast request (what the
 * dry run checks as it is); `followUpBroadcast` hands it to the accept of send-template-broadcast,
 * so every rule, the messaging limit and the opt-out check are that accept's.
 */
import { payloadHashOf, acceptTemplateBroadcast, type BroadcastCaller, type SendTemplateBroadcastDependencies, type SendTemplateBroadcastResult } from './send-template-broadcast';
import { FollowUpAudienceError, FollowUpTooSoonError } from './errors';
import type { FollowUpRequest } from './follow-up.schema';
import { matchingRecipients, PER_USER_LIMIT_WAIT_HOURS, tooRecentPerUserLimitFailures, type MatchedRecipient } from './follow-up-audience';
import { readableJob, type StatusReading } from './get-job-status';
import { requireOperationInScope, requireSenderInScope } from './key-scope';
import type { Clock, JobStore, RecipientLedger, SuppressionList } from './ports';
import type { RecipientInput, TemplateBroadcastRequest } from './template-broadcast.schema';
import type { TemplateContent } from '../templates/template-content.schema';

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

/** Who the follow-up reached: `matched` recipients of the parent, of them `optedOut` left out (on the opt-out list now). */
export interface FollowUpAudienceCounts {
  matched: number;
  optedOut: number;
}

export interface BuiltFollowUp {
  request: TemplateBroadcastRequest;
  audience: FollowUpAudienceCounts;
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

function requireNotTooSoon(matched: readonly MatchedRecipient[], body: FollowUpRequest, now: Date): void {
  if (body.force === true) return;
  const recent = tooRecentPerUserLimitFailures(matched, now);
  if (recent.length === 0) return;
  const youngest = recent[recent.length - 1]!.failedAt!;
  const from = new Date(Date.parse(youngest) + PER_USER_LIMIT_WAIT_HOURS * 3_600_000).toISOString();
  throw new FollowUpTooSoonError(
    `audience includes ${recent.length} recipient${recent.length === 1 ? '' : 's'} that failed with 131049 (Meta's per-user marketing limit) less than ${PER_USER_LIMIT_WAIT_HOURS} hours ago; Meta would refuse them again: follow up from ${from}, or set force: true`,
  );
}

/**
 * The broadcast request a follow-up stands for, and who it reaches. Refuses first a key that may not
 * send a template broadcast from the body's sender (403, 401: before any audience is read, so a
 * refusal never depends on who of the parent's recipients is opted out), then a parent of another
 * organization or outside the key's scope (as a status read), a free-form parent, a follow-up
 * reaching nobody, and one to 131049 failures younger than 24 hours unless `force` (4xx naming the
 * rule). Opted-out recipients are left out of the request and counted.
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
  const matched = await matchingRecipients(ports.broadcasts, parent, body.audience, reading);
  requireNotTooSoon(matched, body, reading.now);
  const suppressed = matched.length === 0 ? new Set<string>() : await ports.optOuts.suppressedAmong(caller.organizationId, matched.map(({ to }) => to));
  const reached = matched.filter(({ to }) => !suppressed.has(to));
  if (reached.length === 0) {
    const why = matched.length === 0 ? 'no recipient of the job matches audience' : `every one of the ${matched.length} matching recipients is on the opt-out list`;
    throw new FollowUpAudienceError(`audience reaches nobody: ${why}; nothing was queued`);
  }
  const { audience: _audience, force: _force, ...broadcast } = body;
  return {
    request: { ...broadcast, data: reached.map((recipient) => recipientOf(recipient, body)) },
    audience: { matched: matched.length, optedOut: matched.length - reached.length },
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
    const { request, audience } = await buildFollowUpRequest(dependencies, { caller, ...input });
    const result = await acceptTemplateBroadcast(dependencies, caller, request, keyed, input.jobId);
    return { ...result, followUpOf: input.jobId, audience };
  };
  if (!keyed) return work();
  return dependencies.idempotency.run(`broadcast#${caller.organizationId}#${keyed.key}`, payloadHash, work, { inProgressTimeoutMs: options.inProgressTimeoutMs });
}
