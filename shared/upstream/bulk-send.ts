/**
 * POST /upstream/phone-numbers/{phoneNumberId}/messages/bulk: one template to up to 100 recipients,
 * each with its own variables, answered synchronously with a delivery summary.
 *
 * Pacing is the platform's: the business account's shared SendPacer (the same schedule broadcast
 * chunk workers use) hands out one block of slots for the call; rate-limit answers hold the whole
 * account and are retried with full-jitter backoff (shared/broadcast/backoff.ts), as are transient
 * errors. The call is bounded so it fits API Gateway's 29 s: no send starts after `budgetMs`, each
 * send's timeout is cut to what remains, and recipients left over are reported `not_sent`.
 *
 * Not idempotent (as single sends): a retried bulk call sends again. `unknown` results (timeouts,
 * 5xx) may have been delivered; they are logged for reconciliation through webhooks.
 */
import * as v from 'valibot';
import { fullJitterDelay } from '../broadcast/backoff';
import { templateMessageBody } from '../broadcast/template-placeholders';
import { RequestValidationError } from '../http/errors';
import { parseRequest } from '../http/validation';
import type { GraphError } from './cloud-api-client';
import { isRateLimitRejection, isRetryableRejection } from './cloud-api-client';
import { callGraph } from './call-upstream';
import { UpstreamRejectedError, UpstreamUnavailableError } from './errors';
import { contractErrorOf } from './graph-error';
import { resolveTarget } from './resolve-target';
import type { UpstreamWrapperDependencies } from './ports';

const digits = v.pipe(v.string(), v.regex(/^\d{6,15}$/, 'must be 6 to 15 digits (international, without + or spaces)'));
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

const notSentError = (): GraphError => ({
  message: 'Not sent: the call ran out of time before this recipient\'s turn (the account\'s pace or rate limits); send it again',
  type: 'WrapperTimeBudgetExceeded',
  code: 0,
});

/**
 * The platform's template message body (`templateMessageBody`, as broadcasts send it); a recipient's
 * own `components` replace the components, else the shared non-body components come first.
 */
export function bulkMessageBody(input: BulkSendInput, recipient: BulkSendInput['recipients'][number]): Record<string, unknown> {
  const base = templateMessageBody(recipient.to, input.template, recipient.parameters ?? []);
  const shared = (input.template.components ?? []).filter((component) => String(component.type).toLowerCase() !== 'body' || !recipient.parameters?.length);
  const components = recipient.components ?? [...shared, ...(base.template.components ?? [])];
  const { components: _own, ...template } = base.template;
  return { ...base, template: components.length > 0 ? { ...template, components } : template };
}

export async function sendBulkTemplate(
  deps: UpstreamWrapperDependencies,
  input: { organizationId: string; pathParameters: Readonly<Record<string, string>>; body: unknown },
): Promise<BulkSendResult> {
  const { settings, clock } = deps;
  const bulk = settings.bulk;
  const startedAt = clock.now().getTime();
  const deadline = startedAt + bulk.budgetMs;
  const target = await resolveTarget(deps, 'phone-number', input.organizationId, input.pathParameters);
  const request = parseRequest(bulkSendSchema(bulk.maxRecipients), input.body ?? {});
  const seen = new Map<string, number>();
  request.recipients.forEach((recipient, index) => {
    const first = seen.get(recipient.to);
    if (first !== undefined) throw new RequestValidationError(`recipients[${index}].to duplicates recipients[${first}].to`);
    seen.set(recipient.to, index);
  });

  const account = target.account;
  const phoneNumberId = target.phoneNumber!.phoneNumberId;
  const rate = account.messagesPerSecond ?? settings.defaultMessagesPerSecond;
  const spacingMs = 1000 / rate;
  const firstSlot = await deps.pacer.reserve(account.wabaId, request.recipients.length, rate, clock.now().getTime());
  const context = { account, operation: 'sendBulkTemplate', verifiedNode: true, send: { phoneNumberId, messageType: 'template' } };

  const sendOne = async (index: number): Promise<RecipientResult> => {
    const recipient = request.recipients[index]!;
    const body = bulkMessageBody(request, recipient);
    let slot = firstSlot + index * spacingMs;
    let lastError: { status: 'failed' | 'unknown'; error: GraphError } | undefined;
    for (let attempt = 1; attempt <= bulk.maxAttempts; attempt += 1) {
      // A send needs a second at least to be worth starting.
      if (slot > deadline - 1_000) {
        return lastError
          ? { to: recipient.to, ...lastError, error: contractErrorOf(lastError.error), attempts: attempt - 1 }
          : { to: recipient.to, status: 'not_sent', error: contractErrorOf(notSentError()), attempts: attempt - 1 };
      }
      const wait = slot - clock.now().getTime();
      if (wait > 0) await deps.sleep(wait);
      const timeoutMs = Math.max(1_000, Math.min(settings.upstreamTimeoutMs, deadline - clock.now().getTime()));
      try {
        const response = await callGraph(deps, context, { method: 'POST', path: `/${encodeURIComponent(phoneNumberId)}/messages`, json: body, accessToken: target.accessToken, timeoutMs });
        const messageId = (response.body as { messages?: Array<{ id?: string }> } | undefined)?.messages?.[0]?.id;
        if (messageId) return { to: recipient.to, status: 'sent', message_id: messageId, attempts: attempt };
        return { to: recipient.to, status: 'unknown', error: contractErrorOf({ message: 'Accepted without a message id', type: 'UpstreamError', code: response.status }), attempts: attempt };
      } catch (error) {
        if (error instanceof UpstreamUnavailableError) {
          // No answer (or 5xx): it may have been sent. Never retried, so nobody gets it twice.
          return { to: recipient.to, status: 'unknown', error: contractErrorOf({ message: `Outcome unknown (${error.message}); reconcile through webhooks before resending`, type: 'UpstreamUnavailable', code: 502 }), attempts: attempt };
        }
        if (!(error instanceof UpstreamRejectedError)) throw error;
        lastError = { status: 'failed', error: error.graphError };
        if (!isRetryableRejection(error.httpStatus, error.graphError.code) || attempt === bulk.maxAttempts) {
          return { to: recipient.to, status: 'failed', error: contractErrorOf(error.graphError), attempts: attempt };
        }
        if (isRateLimitRejection(error.httpStatus, error.graphError.code)) {
          await deps.pacer.holdUntil(account.wabaId, clock.now().getTime() + bulk.rateLimitHoldMs);
        }
        await deps.sleep(fullJitterDelay(attempt, bulk.backoff, deps.random));
        slot = await deps.pacer.reserve(account.wabaId, 1, rate, clock.now().getTime());
      }
    }
    return { to: recipient.to, status: 'failed', error: contractErrorOf(lastError?.error ?? notSentError()), attempts: bulk.maxAttempts };
  };

  const results: RecipientResult[] = new Array(request.recipients.length);
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
    summary: { total: results.length, sent: count('sent'), failed: count('failed'), unknown: count('unknown'), not_sent: count('not_sent') },
    results,
  };
}
