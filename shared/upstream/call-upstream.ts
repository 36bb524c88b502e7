/**
 * One Graph call of the wrapper and what its answer means, by the one classifier
 * (shared/sending/graph-answer.ts): 2xx/3xx → returned unchanged; unknown (timeout, connection
 * failure, 502/504, a 5xx without Meta's error) and Meta's own 5xx errors → UpstreamUnavailableError
 * (502, as the contract answers every 5xx; a 5xx carrying Meta's error has its rejection as the
 * cause, so its send is recorded FAILED, not UNKNOWN); rate limits → UpstreamRateLimitedError (429);
 * any other 4xx → UpstreamRejectedError (400), the Graph error passed through. OAuth 190 on the
 * account's own node also flags the account needs-authorization. A send whose outcome is unknown is
 * logged for reconciliation.
 */
import type { BusinessAccount } from '../tenancy/tenancy-entities';
import { classifyGraphAnswer, type GraphAnswer, type GraphReply } from '../sending/graph-answer';
import { isInvalidTokenError } from '../sending/graph-error';
import { UpstreamRateLimitedError, UpstreamRejectedError, UpstreamTargetNotFoundError, UpstreamUnavailableError } from './errors';
import type { GraphRequest, GraphResponse } from './graph-transport';
import type { UpstreamWrapperDependencies } from './ports';
import type { ResolvedTarget } from './resolve-target';

export interface CallContext {
  account: BusinessAccount;
  /** Operation name, for logs. */
  operation: string;
  /**
   * The request addresses a node verified as the account's own (its WABA, one of its numbers, a
   * template or flow checked against its lists). Only then does a 190 flag the account: a 190 on
   * an id we could not verify (media) says nothing about the account's token.
   */
  verifiedNode: boolean;
  /** A message send: one of unknown outcome may have gone out; it is logged for reconciliation. */
  send?: { phoneNumberId: string; messageType?: string };
}

export async function callGraph(deps: UpstreamWrapperDependencies, context: CallContext, request: GraphRequest): Promise<GraphResponse> {
  const reply = await replyOf(deps, request);
  if (reply.kind === 'answered' && reply.httpStatus < 400) return reply.response;
  const answer = await settleAnswer(deps, context, reply);
  if (reply.kind === 'no-answer') throw reply.error;
  // An answer of 400 or more is never accepted; the check only tells the type so.
  if (answer.outcome === 'accepted') return reply.response;
  throw wrapperErrorOf(answer);
}

/**
 * One send through Graph, classified (the /upstream bulk send): never throws for an answer or its
 * absence; the 190 flag and the unknown-outcome log as for `callGraph`.
 */
export async function sendThroughGraph(deps: UpstreamWrapperDependencies, context: CallContext, request: GraphRequest): Promise<GraphAnswer> {
  return settleAnswer(deps, context, await replyOf(deps, request));
}

type Reply = (GraphReply & { kind: 'answered'; response: GraphResponse }) | (GraphReply & { kind: 'no-answer'; error: UpstreamUnavailableError });

async function replyOf(deps: UpstreamWrapperDependencies, request: GraphRequest): Promise<Reply> {
  try {
    const response = await deps.graph.request(request);
    return { kind: 'answered', httpStatus: response.status, body: response.body, response };
  } catch (error) {
    if (error instanceof UpstreamUnavailableError) return { kind: 'no-answer', failure: error.message, error };
    throw error;
  }
}

/** The classified answer, after its side effects: an unknown send is logged, a 190 on a verified node flags the account. */
async function settleAnswer(deps: UpstreamWrapperDependencies, context: CallContext, reply: Reply): Promise<GraphAnswer> {
  const answer = classifyGraphAnswer(reply);
  if (answer.outcome === 'unknown') logUnknownOutcome(deps, context, unknownReasonOf(answer));
  const refusedBelow500 = (answer.outcome === 'rejected-final' || answer.outcome === 'rejected-retryable') && answer.httpStatus < 500;
  if (refusedBelow500 && isInvalidTokenError(answer.error) && context.verifiedNode) await flagNeedsAuthorization(deps, context.account);
  return answer;
}

/** How an unknown outcome is named in logs and messages: the transport's reason, or the answer's status. */
export const unknownReasonOf = (answer: Extract<GraphAnswer, { outcome: 'unknown' }>): string =>
  answer.httpStatus !== undefined && answer.httpStatus >= 300 ? `HTTP ${answer.httpStatus}` : answer.why;

/** The wrapper's error for an answer of 400 or more (docs/UPSTREAM-WRAPPER.md "Errors"). */
function wrapperErrorOf(answer: Exclude<GraphAnswer, { outcome: 'accepted' }>): Error {
  if (answer.outcome === 'unknown') return new UpstreamUnavailableError(unknownReasonOf(answer));
  // Meta's own 5xx: 502 as every 5xx, but a refusal (the message was not sent).
  if (answer.httpStatus >= 500)
    return new UpstreamUnavailableError(`HTTP ${answer.httpStatus}`, { cause: new UpstreamRejectedError(answer.httpStatus, answer.error) });
  if (answer.rateLimited) return new UpstreamRateLimitedError(answer.httpStatus, answer.error);
  return new UpstreamRejectedError(answer.httpStatus, answer.error);
}

/** Best effort: the caller must see Meta's answer even if the flag cannot be written. */
export async function flagNeedsAuthorization(deps: UpstreamWrapperDependencies, account: BusinessAccount): Promise<void> {
  try {
    await deps.tenancy.markBusinessAccountNeedsAuthorization(account);
    // For operators: the account has to be connected again (admin CLI connect-business-account).
    deps.log.warn('business account flagged needs-authorization after OAuth error 190', { organizationId: account.organizationId, wabaId: account.wabaId });
  } catch (error) {
    deps.log.warn('could not flag business account needs-authorization', { wabaId: account.wabaId, error: (error as Error).name });
  }
}

function logUnknownOutcome(deps: UpstreamWrapperDependencies, context: CallContext, reason: string): void {
  if (!context.send) return;
  deps.log.warn('upstream send outcome unknown; reconcile through webhooks', {
    operation: context.operation,
    organizationId: context.account.organizationId,
    wabaId: context.account.wabaId,
    phoneNumberId: context.send.phoneNumberId,
    messageType: context.send.messageType,
    reason,
  });
}

const MAX_PAGES = 20;

/** Every item of a Graph list edge, following `paging.cursors.after` while `paging.next` is present. */
export async function listAllPages<T>(deps: UpstreamWrapperDependencies, context: CallContext, request: Omit<GraphRequest, 'method'>): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const response = await callGraph(deps, context, { ...request, method: 'GET', query: { ...request.query, ...(after ? { after } : {}) } });
    const body = (response.body ?? {}) as { data?: T[]; paging?: { next?: string; cursors?: { after?: string } } };
    items.push(...(Array.isArray(body.data) ? body.data : []));
    after = body.paging?.next ? body.paging.cursors?.after : undefined;
    if (!after) break;
  }
  return items;
}

/**
 * Runs a call on an id Meta scopes for us (media, through phone_number_id) and turns Meta's "not
 * there / not yours" into our 404: HTTP 404, or error 100 subcode 33 ("does not exist, cannot be
 * loaded due to missing permissions"). An OAuth 190 there may mean either a foreign object or a
 * dead token, so the account's own number is read to tell: if that works, the id is not ours (404);
 * if not, its error (and the needs-authorization flag on 190) is the answer.
 */
export async function scopedByMeta<T>(
  deps: UpstreamWrapperDependencies,
  target: ResolvedTarget,
  kind: 'media',
  id: string,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof UpstreamRejectedError)) throw error;
    const { code, error_subcode: subcode } = error.graphError;
    if (error.httpStatus === 404 || (code === 100 && subcode === 33)) throw new UpstreamTargetNotFoundError(kind, id);
    if (code !== 190 || !target.phoneNumber) throw error;
    await callGraph(
      deps,
      { account: target.account, operation: 'checkToken', verifiedNode: true },
      {
        method: 'GET',
        path: `/${encodeURIComponent(target.phoneNumber.phoneNumberId)}`,
        query: { fields: 'id' },
        accessToken: target.accessToken,
      },
    );
    throw new UpstreamTargetNotFoundError(kind, id);
  }
}
