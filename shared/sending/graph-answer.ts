/**
 * What a Graph API answer to a send means, decided once for every sending path: the broadcast
 * chunk worker (through the Cloud API client), the /upstream single and bulk sends (through
 * call-upstream.ts), free-form and earlier sends (which travel the worker). Input: the HTTP status
 * and body, or the fact that no answer came; output: an outcome, the reason code, its text and what
 * the business can do (failure-reasons.ts holds the codes).
 *
 * The rule (docs/BROADCAST.md "Delivery", docs/UPSTREAM-WRAPPER.md "Unknown outcomes"):
 * - 2xx with a message id: accepted. 2xx without one: unknown (Meta took it, we cannot tell what).
 * - Meta's error object in the body of any other status but 502/504: Meta answered and did not
 *   accept the message, so it is a rejection, even on a 500 or 503 (code 1, 2, 131000, ... are
 *   Meta saying "not now"). Retried when its code is a rate limit or transient, or its status is
 *   408, 429, 500 or 503; otherwise final.
 * - Any other 4xx (no Graph error, e.g. a proxy's page): a rejection too. A client error means the
 *   request was refused before anything was done with it.
 * - 502, 504 (a gateway telling that what stood behind it did not answer: whatever body it writes
 *   is not Meta's verdict), a 5xx without Meta's error, a timeout, a failed connection: unknown.
 *   The message may have gone out, so it is never sent again; Meta's webhooks tell the rest.
 *
 * Before this table the /upstream paths called every 5xx unknown while the worker retried 500/503
 * carrying Meta's error; the rule above is the worker's, now everyone's.
 */
import { describeReason, failureReasonOf, retryClassOf, UNKNOWN_OUTCOME, type ReasonDescription } from './failure-reasons';
import { graphErrorFrom } from './graph-error';
import type { GraphError, SendOutcome } from './ports';

/** What came back from one Graph call: an answer (the body parsed as JSON, else its text; undefined when empty), or none. */
export type GraphReply = { kind: 'answered'; httpStatus: number; body: unknown } | { kind: 'no-answer'; failure: string };

export type AnswerOutcome = 'accepted' | 'rejected-retryable' | 'rejected-final' | 'unknown';

/** A reason code with its words (failure-reasons.ts). */
export interface FailureReason extends ReasonDescription {
  code: string;
}

export type GraphAnswer =
  /** `held`: `messages[0].message_status` is `held_for_quality_assessment` (template pacing): accepted, not sent yet, may still fail. */
  | { outcome: 'accepted'; messageId: string; held?: true }
  | { outcome: 'rejected-retryable' | 'rejected-final'; httpStatus: number; error: GraphError; rateLimited: boolean; reason: FailureReason }
  /** `why`: 'timeout', 'connection failed', 'HTTP 502', ... (the ledger records `UNKNOWN_OUTCOME: <why>`). */
  | { outcome: 'unknown'; why: string; httpStatus?: number; reason: FailureReason };

export type Rejected = Extract<GraphAnswer, { outcome: 'rejected-retryable' | 'rejected-final' }>;

/** `messages[0].message_status` of a paced template's send (../shared/meta/template-components.md "Success response"). */
export const HELD_FOR_QUALITY_ASSESSMENT = 'held_for_quality_assessment';

/** Statuses a gateway in front of Meta answers when Meta did not (Bad Gateway, Gateway Timeout). */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 504]);
/** Statuses that mean "not done, try again" whatever the code: request timeout, too many requests, Meta's error and unavailability. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 503]);

/**
 * A rejection that throttles the account (HTTP 429, codes 4, 80007, 130429, 131048, 131056): the
 * sending engine holds the account's pace, the wrapper answers 429.
 *
 * @example
 * isRateLimitRejection(400, 130429); // true
 * isRateLimitRejection(500, 1); // false
 */
export const isRateLimitRejection = (httpStatus: number, code: number): boolean => httpStatus === 429 || retryClassOf(code) === 'rate-limit';

/**
 * Whether a rejection may be sent again: rate limits, Meta's transient codes, and statuses 408, 429, 500, 503.
 *
 * @example
 * isRetryableRejection(503, 2); // true
 * isRetryableRejection(400, 131049); // false
 */
export const isRetryableRejection = (httpStatus: number, code: number): boolean => RETRYABLE_STATUSES.has(httpStatus) || retryClassOf(code) !== 'final';

/** Whether a body carries Meta's `{ error: { ... } }`. */
export const hasGraphError = (body: unknown): boolean => isObject(body) && isObject((body as { error?: unknown }).error);

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

const reasonOf = (code: string): FailureReason => ({ code, ...describeReason(code) });

const unknown = (why: string, httpStatus?: number): GraphAnswer => ({
  outcome: 'unknown',
  why,
  ...(httpStatus === undefined ? {} : { httpStatus }),
  reason: reasonOf(UNKNOWN_OUTCOME),
});

/** Meta's (or a synthetic) error on a non-2xx answer, retried by its status and code. */
export function rejectionOf(httpStatus: number, body: unknown): Rejected {
  const error = graphErrorFrom(body, httpStatus);
  return {
    outcome: isRetryableRejection(httpStatus, error.code) ? 'rejected-retryable' : 'rejected-final',
    httpStatus,
    error,
    rateLimited: isRateLimitRejection(httpStatus, error.code),
    reason: reasonOf(failureReasonOf(error)),
  };
}

function acceptedOrUnknown(httpStatus: number, body: unknown): GraphAnswer {
  if (!isObject(body)) return unknown('unreadable success body', httpStatus);
  const first = (body as { messages?: Array<{ id?: unknown; message_status?: unknown }> }).messages?.[0];
  const messageId = first?.id;
  if (typeof messageId !== 'string' || messageId.length === 0) return unknown('success without a message id', httpStatus);
  // Template pacing: Meta holds the message while it assesses the template's quality; webhooks settle it.
  return first?.message_status === HELD_FOR_QUALITY_ASSESSMENT ? { outcome: 'accepted', messageId, held: true } : { outcome: 'accepted', messageId };
}

/**
 * Classifies one Graph answer to a send (the rule in this file's header).
 *
 * @example
 * classifyGraphAnswer({ kind: 'answered', httpStatus: 400, body: { error: { message: 'Rate limit hit', type: 'OAuthException', code: 130429 } } });
 * // { outcome: 'rejected-retryable', rateLimited: true, reason: { code: '130429', text: 'Rate limit reached; retries ran out', ... }, ... }
 * classifyGraphAnswer({ kind: 'answered', httpStatus: 503, body: '<html>busy</html>' });
 * // { outcome: 'unknown', why: 'HTTP 503 without a body', ... }
 * classifyGraphAnswer({ kind: 'no-answer', failure: 'timeout' }); // { outcome: 'unknown', why: 'timeout', ... }
 */
export function classifyGraphAnswer(reply: GraphReply): GraphAnswer {
  if (reply.kind === 'no-answer') return unknown(reply.failure);
  const { httpStatus, body } = reply;
  if (httpStatus >= 200 && httpStatus < 300) return acceptedOrUnknown(httpStatus, body);
  if (GATEWAY_STATUSES.has(httpStatus) || httpStatus < 400) return unknown(`HTTP ${httpStatus}`, httpStatus);
  if (httpStatus >= 500 && !hasGraphError(body)) return unknown(`HTTP ${httpStatus} without ${isObject(body) ? "Meta's error" : 'a body'}`, httpStatus);
  return rejectionOf(httpStatus, body);
}

/**
 * The sending port's view of an answer (shared/sending/ports.ts `SendOutcome`).
 *
 * @example
 * sendOutcomeOf(classifyGraphAnswer({ kind: 'no-answer', failure: 'timeout' })); // { kind: 'unknown', reason: 'timeout' }
 */
export function sendOutcomeOf(answer: GraphAnswer): SendOutcome {
  switch (answer.outcome) {
    case 'accepted':
      return { kind: 'accepted', messageId: answer.messageId, ...(answer.held ? { held: true as const } : {}) };
    case 'unknown':
      return { kind: 'unknown', reason: answer.why };
    default:
      return { kind: 'rejected', httpStatus: answer.httpStatus, error: answer.error, retryable: answer.outcome === 'rejected-retryable' };
  }
}
