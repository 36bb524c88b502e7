/**
 * Accepts a template broadcast: checks every rule of the contract, records the job, and
 * fans it out as chunk messages of 1,000 recipients (job-fan-out.ts). Nothing is queued unless
 * every recipient passes; with an Idempotency-Key a retry replays the first answer.
 */
import { sendRulesOf, withSendRules } from '../send-rules/send-rules.schema';
import * as v from 'valibot';
import { sha256Base64Url } from '../crypto/hashing';
import type { IdGenerator } from '../ports/id-generator';
import { CHUNK_SIZE, SYNCHRONOUS_THRESHOLD, type BroadcastJob } from './broadcast-job';
import type { ChunkRecipient } from './chunk-message';
import { DuplicateRecipientError, RecipientNumberError, ScheduledAtError } from './errors';
import { requireOperationInScope, requireSenderInScope, type ScopedCaller } from './key-scope';
import { newJob, newJobId, recordAndFanOut, type SchedulingPorts } from './job-fan-out';
import { reserveReach, type MessagingLimitDependencies } from './messaging-limit';
import { templateRouteOf, type MarketingMessagesRoutingDependencies, type TemplateRoute } from './marketing-messages-onboarding';
import { maxPriceOf } from './template-max-price';
import { requireNoUsMarketing } from './us-marketing-guard';
import type {
  ChunkProgressStore,
  Clock,
  IdempotencyGuard,
  JobControlStore,
  JobRecipient,
  JobStore,
  LedgerEntry,
  OutboundQueue,
  RecipientLedger,
  SenderAccount,
  SenderDirectory,
  SuppressionList,
  UploadedMedia,
} from './ports';
import type { TemplateCatalog } from './template-catalog';
import { requireOwnedMedia, resolveRecipients } from './broadcast-content';
import { contentOf } from '../templates/template-content.schema';
import { quickRepliesOf } from '../outcomes/quick-replies';
import { variableNamesOf } from '../templates/template-components';
import type { TemplateRequirements } from '../templates/template-requirements';
import { requireSendableToUserIds, selectTemplate, sendableRequirementsOf } from './template-checks';
import { scheduleWindowSchema, type RecipientInput, type TemplateBroadcastRequest } from './template-broadcast.schema';
import type { UpstreamTemplate } from '../sending/ports';
import { OPTED_OUT } from '../sending/failure-reasons';
import { phoneNumberOfParts, SPLIT_NUMBER_LENGTH_RULE } from '../recipients/phone-number';

/** With the messaging limit's ports (messaging-limit.ts) and the Marketing Messages API onboarding (marketing-messages-onboarding.ts). */
export interface SendTemplateBroadcastDependencies extends MessagingLimitDependencies, MarketingMessagesRoutingDependencies {
  senders: SenderDirectory;
  templates: TemplateCatalog;
  /** JobControlStore: a job whose accept failed without an Idempotency-Key is cancelled (job-fan-out.ts). */
  broadcasts: JobStore & JobControlStore & RecipientLedger & ChunkProgressStore;
  queue: OutboundQueue;
  idempotency: IdempotencyGuard;
  /** Opt-outs: their recipients are refused (FAILED OPTED_OUT) and never queued. */
  optOuts: SuppressionList;
  clock: Clock;
  ids: IdGenerator;
  /** A header's `mediaId` must be one the organization uploaded through /upstream. */
  media: UploadedMedia;
  /** Broadcasts with `scheduledAt` (docs/BROADCAST.md "Scheduling"); without it such a request cannot be accepted. */
  scheduling?: SchedulingPorts & { minLeadSeconds: number };
}

export type BroadcastCaller = ScopedCaller;

export type SendTemplateBroadcastResult =
  /** `jobId` is absent from answers an Idempotency-Key stored before jobs of this size reported their id. */
  | { kind: 'queued'; recipients: number; jobId?: string }
  | { kind: 'job'; jobId: string; status: 'PROCESSING'; totalRecipients: number; chunkSize: number; totalChunks: number }
  /** Accepted for later, whatever its size. */
  | { kind: 'scheduled'; jobId: string; status: 'SCHEDULED'; scheduledAt: string; totalRecipients: number; chunkSize: number; totalChunks: number };

/**
 * The key of each recipient (recipient.ts `recipientKeyOf`: a number's full international digits,
 * a business-scoped user id as itself), in request order: rule 2 (E.164 length) over every number,
 * then rule 3: any duplicate fails the whole request. Keys of the two kinds never collide, so
 * duplicates compare within each kind.
 */
export function findDuplicateRecipient(recipients: TemplateBroadcastRequest['data']): string[] {
  const keys: string[] = [];
  for (const [index, recipient] of recipients.entries()) keys.push(recipientKeyOfInput(recipient, index));
  // Usually none: only then is each key's first index looked for.
  if (new Set(keys).size === keys.length) return keys;
  const firstIndexOf = new Map<string, number>();
  keys.forEach((key, index) => {
    const first = firstIndexOf.get(key);
    if (first !== undefined) throw new DuplicateRecipientError(index, first);
    firstIndexOf.set(key, index);
  });
  return keys;
}

/** A request's recipient as its key; the request's schema gave it exactly one address. */
export function recipientKeyOfInput(recipient: RecipientInput, index: number): string {
  if (recipient.userId !== undefined) return recipient.userId;
  const full = phoneNumberOfParts(recipient.countryCode ?? '', recipient.toPhoneNumber ?? '');
  if (!full) throw new RecipientNumberError(`data[${index}] ${SPLIT_NUMBER_LENGTH_RULE}`);
  return full;
}

/** A recipient as the recipients list shows it: its number's parts, or its userId with empty number fields. */
export const listedRecipientOf = ({ countryCode, toPhoneNumber, userId }: RecipientInput, index: number): JobRecipient =>
  userId === undefined ? { index, countryCode: countryCode ?? '', toPhoneNumber: toPhoneNumber ?? '' } : { index, countryCode: '', toPhoneNumber: '', userId };

/** The failure code of a recipient on the organization's suppression list (docs/ORGANIZATIONS-AND-V1.md "Opt-outs"). */
export { OPTED_OUT };

/**
 * Splits the recipients into those to queue and those on the organization's opt-out list, which
 * are recorded as refused (FAILED OPTED_OUT, no attempt) instead.
 */
export async function withoutOptedOut(
  optOuts: SuppressionList,
  organizationId: string,
  recipients: readonly ChunkRecipient[],
  now: Date,
): Promise<{ queued: ChunkRecipient[]; refused: LedgerEntry[] }> {
  return splitOptedOut(
    recipients,
    await optOuts.suppressedAmong(
      organizationId,
      recipients.map(({ to }) => to),
    ),
    now,
  );
}

function splitOptedOut(
  recipients: readonly ChunkRecipient[],
  suppressed: ReadonlySet<string>,
  now: Date,
): { queued: ChunkRecipient[]; refused: LedgerEntry[] } {
  if (suppressed.size === 0) return { queued: [...recipients], refused: [] };
  const queued: ChunkRecipient[] = [];
  const refused: LedgerEntry[] = [];
  for (const recipient of recipients) {
    const { index, to } = recipient;
    if (suppressed.has(to)) refused.push({ index, to, status: 'FAILED', failureReasonCode: OPTED_OUT, attempts: 0, updatedAt: now.toISOString() });
    else queued.push(recipient);
  }
  return { queued, refused };
}

/** `scheduledAt` within its window from now (at least the deployment's minimum lead, at most 35 days). */
export function scheduledTimeOf(text: string, now: Date, scheduling: { minLeadSeconds: number } | undefined): Date {
  if (!scheduling) throw new TypeError('Scheduled broadcasts are not composed in this function');
  const result = v.safeParse(scheduleWindowSchema(now, scheduling.minLeadSeconds), text, { abortPipeEarly: true });
  if (!result.success) throw new ScheduledAtError(`scheduledAt ${result.issues[0].message}`);
  return new Date(Date.parse(text));
}

export const payloadHashOf = (request: unknown): string => sha256Base64Url(JSON.stringify(request));

/** The request's Idempotency-Key and its body's hash (payloadHashOf), when it has a key. */
export interface KeyedRequest {
  key: string;
  payloadHash: string;
}

/**
 * Every check of a template broadcast, then its job recorded and queued; also a follow-up's (follow-up.ts: `followUpOf`, always a job).
 * @example
 * await acceptTemplateBroadcast(dependencies, caller, request, undefined); // { kind: 'queued', recipients: 3, jobId: 'pub_…' }
 */
export async function acceptTemplateBroadcast(
  dependencies: SendTemplateBroadcastDependencies,
  caller: BroadcastCaller,
  request: TemplateBroadcastRequest,
  keyed: KeyedRequest | undefined,
  followUpOf?: string,
  /** A follow-up's: each recipient's 131049 re-sends (per-user-limit-resends.ts), by position in `request.data`. */
  perUserLimitResends?: readonly number[],
): Promise<SendTemplateBroadcastResult> {
  // With the body's rules: the window is part of what the request says, checked before any read.
  const scheduledAt = request.scheduledAt === undefined ? undefined : scheduledTimeOf(request.scheduledAt, dependencies.clock.now(), dependencies.scheduling);
  const numbers = findDuplicateRecipient(request.data);
  // The opt-out list is read while the sender and its templates are: the organization's list
  // does not depend on them. Awaited only after their checks, so their errors still come first.
  const suppressedLookup = dependencies.optOuts.suppressedAmong(caller.organizationId, numbers);
  suppressedLookup.catch(() => undefined);
  // With a key the job id is known now (a retry lands on the same job, whose ledger stops duplicates):
  // the read of an earlier attempt's job (job-fan-out.ts) runs alongside the checks, awaited where it was made before.
  const keyedJobId = keyed && newJobId(dependencies.ids, 'template', `${caller.organizationId}\n${keyed.key}`);
  const earlierJob = keyedJobId ? dependencies.broadcasts.getJob(keyedJobId) : undefined;
  earlierJob?.catch(() => undefined);
  const sender: SenderAccount = await dependencies.senders.resolveSender(caller.organizationId, request.fromPhoneNumber);
  const template = selectTemplate(await dependencies.templates.templatesOf(sender.wabaId, sender.accessToken), request);
  const requirements = sendableRequirementsOf(template);
  requireSendableToUserIds(template, request.data);
  requireNoUsMarketing(template.category, sender, template.name, request.data, numbers);
  const now = dependencies.clock.now();
  const recipients = resolveRecipients(request, requirements, numbers, scheduledAt ?? now);
  const content = contentOf(request);
  await requireOwnedMedia(dependencies.media, caller.organizationId, content, recipients, now);
  const { queued, refused } = splitOptedOut(recipients, await suppressedLookup, now);
  // Meta's messaging limit: refused (nothing recorded) when the portfolio's unique recipients would exceed it;
  // a scheduled job counts in the hour it is sent.
  const reservation = await reserveReach(
    dependencies,
    sender,
    queued.map(({ to }) => to),
    scheduledAt ?? now,
  );
  // Which API carries the job, decided once at accept (a scheduled job's too): docs/BROADCAST.md "Marketing Messages API".
  const route = await templateRouteOf(dependencies, sender, template.category, maxPriceOf(template));

  const job = newJob(
    {
      kind: 'template',
      broadcastName: request.broadcastName,
      template: templateOfJob(template, content, requirements, route),
      ...(followUpOf && { followUpOf }),
      ...(request.attributionWindowHours !== undefined && { attributionWindowHours: request.attributionWindowHours }),
      ...withSendRules(sendRulesOf(request)),
    },
    {
      jobId: keyedJobId || newJobId(dependencies.ids, 'template'),
      organizationId: caller.organizationId,
      sender,
      totalRecipients: recipients.length,
      // A scheduled job is answered with its id whatever its size, so it can be read and cancelled.
      exposed: recipients.length > SYNCHRONOUS_THRESHOLD || scheduledAt !== undefined || followUpOf !== undefined,
      now,
      createdByCredentialId: caller.credentialId,
      scheduledAt,
      requestHash: keyed?.payloadHash,
    },
  );
  const listed = listedRecipientsOf(request.data, recipients, perUserLimitResends);
  const { broadcasts, queue, clock, portfolioReach } = dependencies;
  const scheduling = scheduledAt === undefined ? {} : { scheduledJobs: dependencies.scheduling?.scheduledJobs, firings: dependencies.scheduling?.firings };
  await recordAndFanOut({ broadcasts, queue, clock, portfolioReach, ...scheduling }, { job, recipients: queued, refused, listed, reservation, earlierJob });
  return acceptedAnswerOf(job);
}

/** The answer to an accepted broadcast: scheduled, a job to follow, or queued (a small one), by what was recorded. */
function acceptedAnswerOf(job: BroadcastJob): SendTemplateBroadcastResult {
  if (job.scheduledAt !== undefined) {
    const { jobId, scheduledAt: at, totalRecipients, totalChunks } = job;
    return { kind: 'scheduled', jobId, status: 'SCHEDULED', scheduledAt: at, totalRecipients, chunkSize: CHUNK_SIZE, totalChunks };
  }

  return job.exposed
    ? { kind: 'job', jobId: job.jobId, status: 'PROCESSING', totalRecipients: job.totalRecipients, chunkSize: CHUNK_SIZE, totalChunks: job.totalChunks }
    : { kind: 'queued', recipients: job.totalRecipients, jobId: job.jobId };
}

/** Each recipient's values are kept with the list, so a follow-up can send them again (docs/BROADCAST.md "Follow-ups"). */
function listedRecipientsOf(data: TemplateBroadcastRequest['data'], recipients: readonly ChunkRecipient[], perUserLimitResends: readonly number[] | undefined) {
  // One object per recipient, written in place (no spread copies): 10,000 of them in a large accept.
  return data.map((recipient, index): JobRecipient => {
    const listed: JobRecipient = listedRecipientOf(recipient, index);
    const { parameters, content } = recipients[index]!;
    listed.send = content === undefined ? { parameters } : { parameters, content };
    const resends = perUserLimitResends?.[index];
    if (resends) listed.perUserLimitResends = resends;
    return listed;
  });
}

/** The job's template: what identifies it, and what every recipient's send shares (content, a named template's variable names). */
function templateOfJob(template: UpstreamTemplate, content: ReturnType<typeof contentOf>, requirements: TemplateRequirements, route: TemplateRoute) {
  const variableNames = variableNamesOf(requirements);
  const quickReplies = quickRepliesOf(template.components, content?.buttons);
  return {
    name: template.name,
    language: template.language,
    category: template.category,
    id: template.id,
    ...(content && { content }),
    ...(variableNames && { variableNames }),
    ...route,
    ...(quickReplies && { quickReplies }),
  };
}

export async function sendTemplateBroadcast(
  dependencies: SendTemplateBroadcastDependencies,
  caller: BroadcastCaller,
  request: TemplateBroadcastRequest,
  options: { idempotencyKey?: string; inProgressTimeoutMs: number },
): Promise<SendTemplateBroadcastResult & { replayed?: true }> {
  requireOperationInScope(caller, 'send-template-broadcast');
  requireSenderInScope(caller, request.fromPhoneNumber);
  const { idempotencyKey } = options;
  if (!idempotencyKey) return acceptTemplateBroadcast(dependencies, caller, request, undefined);
  const keyed = { key: idempotencyKey, payloadHash: payloadHashOf(request) };
  let acceptedNow = false;
  const result = await dependencies.idempotency.run(
    `broadcast#${caller.organizationId}#${idempotencyKey}`,
    keyed.payloadHash,
    () => {
      acceptedNow = true;
      return acceptTemplateBroadcast(dependencies, caller, request, keyed);
    },
    { inProgressTimeoutMs: options.inProgressTimeoutMs },
  );
  // The stored first answer, told apart from a fresh accept (the Idempotent-Replayed header) and never stored itself.
  return acceptedNow ? result : { ...result, replayed: true };
}
