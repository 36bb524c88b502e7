/**
 * Delivery truth for sends through /upstream (messages, marketing messages, each recipient of a
 * bulk send): every send carries our `biz_opaque_callback_data` (`u1:<sendId>`,
 * shared/delivery/callback-data.ts) and leaves a send record, so Meta's status events find it
 * by that reference, even when the call's outcome was unknown (timeout, 5xx) and no message id
 * was ever seen. A caller's own callback data is replaced in what goes to Meta and kept in the
 * send record (docs/UPSTREAM-WRAPPER.md, "Callback data").
 */
import { callbackDataOf, MAX_CALLBACK_DATA_LENGTH } from '../delivery/callback-data';
import { RequestValidationError } from '../http/errors';
import { UpstreamRejectedError, UpstreamUnavailableError } from './errors';
import { bestEffort } from './owned-ids';
import type { UpstreamSendOutcome, UpstreamSendRecord, UpstreamWrapperDependencies } from './ports';
import type { ResolvedTarget } from './resolve-target';

export const CALLBACK_DATA_FIELD = 'biz_opaque_callback_data';

/** One send as the use case knows it; the target and the time complete its record. */
export interface UpstreamSend {
  sendId: string;
  to: string;
  outcome: UpstreamSendOutcome;
  messageId?: string;
  customerCallbackData?: string;
}

export interface PreparedSend {
  sendId: string;
  /** The body that goes to Meta: the caller's, with our callback data. */
  body: Record<string, unknown>;
  customerCallbackData?: string;
}

/** A fresh send id: time-ordered like the platform's other ids, and nothing else in it. */
export const newSendId = (deps: Pick<UpstreamWrapperDependencies, 'ids'>): string => deps.ids.newId('snd');

/**
 * The caller's body with our callback data. Its own value must be what Meta would accept (a string
 * of at most 512 characters): it is kept for the caller, so an unusable one is a 400 here.
 */
export function prepareSend(deps: Pick<UpstreamWrapperDependencies, 'ids'>, body: Record<string, unknown>): PreparedSend {
  const own = body[CALLBACK_DATA_FIELD];
  if (own !== undefined && own !== null && (typeof own !== 'string' || own.length > MAX_CALLBACK_DATA_LENGTH)) {
    throw new RequestValidationError(`body.${CALLBACK_DATA_FIELD} must be a string of at most ${MAX_CALLBACK_DATA_LENGTH} characters`);
  }
  const sendId = newSendId(deps);
  return {
    sendId,
    body: withCallbackData(body, sendId),
    ...(typeof own === 'string' && own.length > 0 ? { customerCallbackData: own } : {}),
  };
}

/** `body` with `biz_opaque_callback_data: u1:<sendId>` (whatever was there replaced). */
export function withCallbackData<T extends Record<string, unknown>>(body: T, sendId: string): T & { biz_opaque_callback_data: string } {
  return { ...body, [CALLBACK_DATA_FIELD]: callbackDataOf({ kind: 'upstream-send', sendId }) };
}

/**
 * What a failed call says about the send (callGraph's errors, classified by
 * shared/sending/graph-answer.ts): one of unknown outcome may have gone out, a rejection did not
 * (Meta's 5xx with its error is answered 502 like any 5xx, its rejection the cause); anything else
 * says nothing.
 */
export function outcomeOfFailure(error: unknown): UpstreamSendOutcome | undefined {
  if (error instanceof UpstreamUnavailableError) return error.cause instanceof UpstreamRejectedError ? 'FAILED' : 'UNKNOWN';
  if (error instanceof UpstreamRejectedError) return 'FAILED';
  return undefined;
}

/**
 * Writes the send records (and the message id records of the sends Meta answered with an id),
 * best effort: the message went out, so a failed write must not turn it into an error the caller
 * would retry; it is logged (no recipient) and those message ids are refused in later bodies.
 */
export async function recordUpstreamSends(
  deps: UpstreamWrapperDependencies,
  target: ResolvedTarget,
  sends: readonly UpstreamSend[],
  operation: string,
): Promise<void> {
  if (sends.length === 0) return;
  const createdAt = deps.clock.now();
  const records: UpstreamSendRecord[] = sends.map((send) => ({
    organizationId: target.account.organizationId,
    wabaId: target.account.wabaId,
    phoneNumberId: target.phoneNumber?.phoneNumberId ?? '',
    createdAt,
    ...send,
  }));
  await bestEffort(deps, 'record sends and their message ids', target, operation, () => deps.idRecords.recordSends(records));
}
