/**
 * Re-sends after Meta's per-user marketing limit (131049), counted per recipient across follow-ups
 * (docs/BROADCAST.md "Follow-ups", "131049"). Meta enforces retry limits on such re-sends at the
 * business-account level (fact sheet row 9), so each recipient's re-sends widen their interval and
 * stop at a cap:
 *
 * - re-send 1 waits 24 hours after the failure, re-send 2 48 hours, re-send 3 96 hours (24 · 2^n);
 * - at most 3 re-sends of a recipient (PER_USER_LIMIT_RESEND_CAP); later follow-ups leave it out;
 * - `force` lifts only the first 24-hour wait (the contract of `force` before the count existed);
 *   the widened intervals and the cap hold even under `force`.
 *
 * The count travels down the follow-up chain with each recipient (`JobRecipient.perUserLimitResends`,
 * stored with the job's recipients at accept: no extra write), so a follow-up of a follow-up reads it
 * where it reads the recipient's values.
 */
import { PER_USER_LIMIT_CODE, type MatchedRecipient } from './follow-up-audience';
/** Re-sends of one recipient after 131049 failures, at most. */
export const PER_USER_LIMIT_RESEND_CAP = 3;
/** The wait before the first re-send; each later one waits twice the one before. */
export const PER_USER_LIMIT_FIRST_WAIT_HOURS = 24;

const HOUR_MS = 3_600_000;

/**
 * Hours to wait after a 131049 failure before re-sending to a recipient re-sent `previous` times already.
 *
 * @example
 * perUserLimitWaitHours(0); // 24
 * perUserLimitWaitHours(2); // 96
 */
export const perUserLimitWaitHours = (previous: number): number => PER_USER_LIMIT_FIRST_WAIT_HOURS * 2 ** previous;

/** A matched recipient's re-sends so far (0 for a recipient of an original broadcast). */
export const previousResendsOf = (recipient: MatchedRecipient): number => recipient.listed.perUserLimitResends ?? 0;

const isPerUserLimitFailure = (recipient: MatchedRecipient): boolean => recipient.failureReasonCode === PER_USER_LIMIT_CODE && recipient.failedAt !== undefined;

/**
 * The count a recipient carries into the follow-up: one more when it failed with 131049 (this send
 * is a re-send), unchanged otherwise (a recipient re-sent before and failing otherwise keeps its history).
 *
 * @example
 * resendsAfter({ listed: { ..., perUserLimitResends: 1 }, to, failureReasonCode: '131049', failedAt }); // 2
 */
export const resendsAfter = (recipient: MatchedRecipient): number => previousResendsOf(recipient) + (isPerUserLimitFailure(recipient) ? 1 : 0);

/** A 131049 failure that may not be re-sent yet, and from when it may. */
export interface TooSoonResend {
  recipient: MatchedRecipient;
  from: Date;
  waitHours: number;
}

export interface ResendJudgement {
  /** Recipients the follow-up may send (every recipient that is not a 131049 failure, too). */
  sendable: MatchedRecipient[];
  /** 131049 failures re-sent PER_USER_LIMIT_RESEND_CAP times already: left out. */
  capped: MatchedRecipient[];
  /** 131049 failures within their wait (the first 24 hours lifted by `force`), the latest `from` last. */
  tooSoon: TooSoonResend[];
}

/**
 * Sorts the matched recipients of a follow-up by the 131049 rule at `now`.
 *
 * @example
 * judgeResends(matched, new Date('2026-03-03T09:00:00Z'), false);
 * // { sendable: [...], capped: [a recipient re-sent 3 times], tooSoon: [{ recipient, from, waitHours: 48 }] }
 */
export function judgeResends(matched: readonly MatchedRecipient[], now: Date, force: boolean): ResendJudgement {
  const judgement: ResendJudgement = { sendable: [], capped: [], tooSoon: [] };
  for (const recipient of matched) {
    if (!isPerUserLimitFailure(recipient)) {
      judgement.sendable.push(recipient);
      continue;
    }
    const previous = previousResendsOf(recipient);
    if (previous >= PER_USER_LIMIT_RESEND_CAP) {
      judgement.capped.push(recipient);
      continue;
    }
    const waitHours = perUserLimitWaitHours(previous);
    const from = new Date(Date.parse(recipient.failedAt!) + waitHours * HOUR_MS);
    if (from.getTime() > now.getTime() && !(force && previous === 0)) judgement.tooSoon.push({ recipient, from, waitHours });
    else judgement.sendable.push(recipient);
  }
  judgement.tooSoon.sort((a, b) => a.from.getTime() - b.from.getTime());
  return judgement;
}

/**
 * The refusal's words for recipients still within their wait: how many, the rule, and from when the
 * follow-up would be accepted (`force` is offered only when it would help: first re-sends).
 *
 * @example
 * tooSoonMessage(tooSoon); // 'audience includes 1 recipient that failed with 131049 … follow up from 2026-03-02T09:01:00.000Z, or set force: true'
 */
export function tooSoonMessage(tooSoon: readonly TooSoonResend[]): string {
  const count = `${tooSoon.length} recipient${tooSoon.length === 1 ? '' : 's'}`;
  const from = tooSoon[tooSoon.length - 1]!.from.toISOString();
  const firsts = tooSoon.filter(({ waitHours }) => waitHours === PER_USER_LIMIT_FIRST_WAIT_HOURS).length;
  if (firsts === tooSoon.length) {
    return `audience includes ${count} that failed with 131049 (Meta's per-user marketing limit) less than ${PER_USER_LIMIT_FIRST_WAIT_HOURS} hours ago; Meta would refuse them again: follow up from ${from}, or set force: true`;
  }
  const widest = Math.max(...tooSoon.map(({ waitHours }) => waitHours));
  return (
    `audience includes ${count} that failed with 131049 (Meta's per-user marketing limit) within their re-send interval ` +
    `(24, 48, then 96 hours after the failure, widening with each re-send; up to ${widest} hours here; force lifts only the first 24 hours): follow up from ${from}`
  );
}
