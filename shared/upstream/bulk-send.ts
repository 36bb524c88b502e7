/**
 * POST /upstream/phone-numbers/{phoneNumberId}/messages/bulk: one template to up to 100 recipients,
 * each with its own variables, answered synchronously with a delivery summary.
 *
 * A thin policy over the sending engine (shared/sending), as the broadcast chunk worker is: the
 * business account's shared schedule (one reservation for the whole call), the same hold after
 * rate-limit answers and the same full-jitter backoff. What is the bulk send's own: its attempt
 * budget (`maxAttempts` for every retryable error: a storm is reported back to the caller), its
 * time budget (no send starts after `budgetMs`, each send's timeout is cut to what remains,
 * recipients left over are `not_sent`, so it fits API Gateway's 29 s) and its result shape.
 *
 * Not idempotent (as single sends): a retried bulk call sends again. `unknown` results (timeouts,
 * 502/504, a 5xx without Meta's error: shared/sending/graph-answer.ts) may have been delivered; they
 * are logged for reconciliation through webhooks. A 5xx carrying Meta's error is Meta's refusal:
 * retried when retryable, else `failed` with that error.
 */
import * as v from 'valibot';
import { RequestValidationError } from '../http/errors';
import { parseRequest } from '../http/validation';
import { phoneDigitBounds } from '../recipients/phone-number';
import { phoneDigitsSentence } from '../recipients/phone-rule';
import { dispatchSend, openSendSession, type Dispatched } from '../sending/dispatch-send';
import { templateMessageBody } from '../sending/message-bodies';
import { sendOutcomeOf, type GraphAnswer } from '../sending/graph-answer';
import type { GraphError, SendOutcome } from '../sending/ports';
import { bulkSendBudget } from '../sending/send-policy';
import { sendThroughGraph, unknownReasonOf } from './call-upstream';
import { contractErrorOf } from '../sending/graph-error';
import type { ResolvedTarget } from './resolve-target';
import type { UpstreamWrapperDependencies } from './ports';
import { newSendId, withCallbackData, type UpstreamSend } from './upstream-sends';

const digits = phoneDigitsSentence(phoneDigitBounds.upstreamRecipient, ' (international, without + or spaces)');
const componentList = v.array(v.record(v.string(), v.unknown()));

export const bulkSendSchema = (maxRecipients: number) =>
  v.object({
    template: v.object({
      name: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(512)),
      language: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(16)),
      /** Components shared by every recipient (e.g. a header image); a recipient's own `components` replace them. */
      components: v.optional(componentList),
    }),
    recipients: v.pipe(
      v.array(
        v.object({
          to: digits,
          /** Body variables {{1}}..{{n}} in order. */
          parameters: v.optional(v.array(v.pipe(v.string(), v.maxLength(1024)))),
          /** Full template components for this recipient (header, body, buttons). */
          components: v.optional(componentList),
        }),
      ),
      v.minLength(1, 'must list at least one recipient'),
      v.maxLength(maxRecipients, `must list at most ${maxRecipients} recipients per call (use the broadcast API for more)`),
    ),
  });

export type BulkSendInput = v.InferOutput<ReturnType<typeof bulkSendSchema>>;

export type RecipientResult =
  | { to: string; status: 'sent'; message_id: string; attempts: number }
  | { to: string; status: 'failed' | 'unknown' | 'not_sent'; error: ReturnType<typeof contractErrorOf>; attempts: number };

export interface BulkSendResult {
  summary: { total: number; sent: number; failed: number; unknown: number; not_sent: number };
  results: RecipientResult[];
}

/** The caller's answer, and the sends made (each recipient that was sent to, with its send id), for the send records. */
export interface BulkSendRun {
  result: BulkSendResult;
  sends: UpstreamSend[];
}

const notSentError = (): GraphError => ({
  message: "Not sent: the call ran out of time before this recipient's turn (the account's pace or rate limits); send it again",
  type: 'WrapperTimeBudgetExceeded',
  code: 0,
});

/**
 * The platform's template message body (`templateMessageBody`, as broadcasts send it); a recipient's
 * own `components` replace the components, else the shared non-body components come first.
 */
export function bulkMessageBody(input: BulkSendInput, recipient: BulkSendInput['recipients'][number]): Record<string, unknown> {
  const base = templateMessageBody(input.template, { to: recipient.to, parameters: recipient.parameters ?? [] });
  const shared = (input.template.components ?? []).filter((component) => String(component.type).toLowerCase() !== 'body' || !recipient.parameters?.length);
  const components = recipient.components ?? [...shared, ...(base.template.components ?? [])];
  const { components: _own, ...template } = base.template;
  return { ...base, template: components.length > 0 ? { ...template, components } : template };
}

/**
 * `target`: the caller's phone number, already resolved and checked against its organization;
 * `startedAtMs`: when the request's work began, which the time budget counts from.
 */
export async function sendBulkTemplate(deps: UpstreamWrapperDependencies, target: ResolvedTarget, body: unknown, startedAtMs: number): Promise<BulkSendRun> {
  const { settings, clock } = deps;
  const bulk = settings.bulk;
  const deadline = startedAtMs + bulk.budgetMs;
  const request = parseRequest(bulkSendSchema(bulk.maxRecipients), body ?? {});
  const seen = new Map<string, number>();
  request.recipients.forEach((recipient, index) => {
    const first = seen.get(recipient.to);
    if (first !== undefined) throw new RequestValidationError(`recipients[${index}].to duplicates recipients[${first}].to`);
    seen.set(recipient.to, index);
  });

  const account = target.account;
  const phoneNumberId = target.phoneNumber!.phoneNumberId;
  const messagesPerSecond = account.messagesPerSecond ?? settings.defaultMessagesPerSecond;
  const session = openSendSession(deps, { accountKey: account.wabaId, messagesPerSecond }, bulk, bulkSendBudget(bulk), {
    firstBlock: request.recipients.length,
  });
  const context = { account, operation: 'sendBulkTemplate', verifiedNode: true, send: { phoneNumberId, messageType: 'template' } };
  // A send needs a second at least to be worth starting.
  const startsInTime = (slot: number): boolean => slot <= deadline - 1_000;

  /** One Graph call as a send outcome (graph-answer.ts decides it); an unknown one carries the error the caller will see. */
  const send = async (body: Record<string, unknown>): Promise<BulkOutcome> => {
    const timeoutMs = Math.max(1_000, Math.min(settings.upstreamTimeoutMs, deadline - clock.now().getTime()));
    const graphRequest = {
      method: 'POST' as const,
      path: `/${encodeURIComponent(phoneNumberId)}/messages`,
      json: body,
      accessToken: target.accessToken,
      timeoutMs,
    };
    return bulkOutcomeOf(await sendThroughGraph(deps, context, graphRequest));
  };

  const sendOne = async (index: number): Promise<RecipientResult> => {
    const recipient = request.recipients[index]!;
    const firstSlot = await session.slots.take();
    if (!startsInTime(firstSlot)) return { to: recipient.to, status: 'not_sent', error: contractErrorOf(notSentError()), attempts: 0 };
    // One send id per recipient: its retries are the same send (only one of them can be accepted).
    const sendId = newSendId(deps);
    const body = withCallbackData(bulkMessageBody(request, recipient), sendId);
    const result = resultOf(recipient.to, await dispatchSend(session, { firstSlot, startsInTime, send: () => send(body) }));
    sends.push(sendOf(sendId, result));
    return result;
  };

  const results: RecipientResult[] = new Array(request.recipients.length);
  const sends: UpstreamSend[] = [];
  let next = 0;
  const lane = async () => {
    while (next < request.recipients.length) {
      const index = next;
      next += 1;
      results[index] = await sendOne(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(bulk.concurrency, request.recipients.length) }, lane));

  const count = (status: RecipientResult['status']) => results.filter((result) => result.status === status).length;
  return {
    result: {
      summary: { total: results.length, sent: count('sent'), failed: count('failed'), unknown: count('unknown'), not_sent: count('not_sent') },
      results,
    },
    sends,
  };
}

function sendOf(sendId: string, result: RecipientResult): UpstreamSend {
  if (result.status === 'sent') return { sendId, to: result.to, outcome: 'SENT', messageId: result.message_id };
  return { sendId, to: result.to, outcome: result.status === 'unknown' ? 'UNKNOWN' : 'FAILED' };
}

type BulkOutcome = Exclude<SendOutcome, { kind: 'unknown' }> | { kind: 'unknown'; reason: string; error: GraphError };

/** An unknown outcome (never retried, so nobody gets it twice) with the error its recipient's result shows. */
function bulkOutcomeOf(answer: GraphAnswer): BulkOutcome {
  if (answer.outcome !== 'unknown') return sendOutcomeOf(answer) as Exclude<SendOutcome, { kind: 'unknown' }>;
  if (answer.httpStatus !== undefined && answer.httpStatus < 300) {
    return {
      kind: 'unknown',
      reason: 'accepted without a message id',
      error: { message: 'Accepted without a message id', type: 'UpstreamError', code: answer.httpStatus },
    };
  }
  const reason = unknownReasonOf(answer);
  return {
    kind: 'unknown',
    reason,
    error: { message: `Outcome unknown (${reason}); reconcile through webhooks before resending`, type: 'UpstreamUnavailable', code: 502 },
  };
}

function resultOf(to: string, dispatched: Dispatched<BulkOutcome>): RecipientResult {
  switch (dispatched.kind) {
    case 'sent':
      return { to, status: 'sent', message_id: dispatched.messageId, attempts: dispatched.attempts };
    case 'failed':
      return { to, status: 'failed', error: contractErrorOf(dispatched.rejection.error), attempts: dispatched.attempts };
    case 'unknown':
      return { to, status: 'unknown', error: contractErrorOf(dispatched.outcome.error), attempts: dispatched.attempts };
    case 'withdrawn':
      // The bulk send never withdraws (it passes no stillWanted); were it to, nothing went out.
      return { to, status: 'not_sent', error: contractErrorOf(notSentError()), attempts: dispatched.attempts };
  }
}
