/**
 * The sending engine: one recipient's send with its retries, for any sender (the chunk worker,
 * the /upstream bulk send). It waits for the recipient's slot, calls the Cloud API, classifies the
 * outcome (send-policy.ts) and on a retryable rejection holds the account (rate limits), backs
 * off and tries again on a later slot, until the attempt budget or the caller's time budget ends.
 *
 * What a sender decides itself: where the first slot comes from (and whether it still fits its
 * time budget), how the call is made, and what the result looks like to its caller.
 */
import type { Clock } from '../ports/clock';
import type { Rejection, SendOutcome, SendPacer } from './ports';
import { SendSlots, type SendSlotsOptions } from './send-slots';
import { RateLimitHold, classifyOutcome, pacedRate, fullJitterDelay, type AttemptBudget, type SendPolicySettings } from './send-policy';

export interface SendingPorts {
  pacer: SendPacer;
  clock: Clock;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

/** One sender's sending for one business account (an invocation of the worker, one bulk call). */
export interface SendSession {
  readonly accountKey: string;
  readonly slots: SendSlots;
  readonly hold: RateLimitHold;
  readonly ports: SendingPorts;
  readonly policy: SendPolicySettings;
  readonly budget: AttemptBudget;
}

export function openSendSession(
  ports: SendingPorts,
  account: { accountKey: string; messagesPerSecond: number },
  policy: SendPolicySettings,
  budget: AttemptBudget,
  options: SendSlotsOptions = {},
): SendSession {
  return {
    accountKey: account.accountKey,
    slots: new SendSlots(ports.pacer, account.accountKey, pacedRate(account.messagesPerSecond), ports.clock, options),
    hold: new RateLimitHold(account.messagesPerSecond, policy.rateLimitHoldMs),
    ports,
    policy,
    budget,
  };
}

export type Dispatched<O extends SendOutcome = SendOutcome> =
  | { kind: 'sent'; messageId: string; attempts: number; held?: true }
  /**
   * Not sent: rejected for good, out of attempts, or (after a retryable rejection) out of time;
   * `outOfTime` marks the last case, where the recipient could still be tried by a later sender.
   */
  | { kind: 'failed'; rejection: Rejection; attempts: number; outOfTime?: true }
  | { kind: 'unknown'; outcome: Extract<O, { kind: 'unknown' }>; attempts: number }
  /** Not sent: the sender no longer wanted it when its slot came (a cancelled job). */
  | { kind: 'withdrawn'; attempts: number };

export interface SendRequest<O extends SendOutcome> {
  /** The first attempt's slot, already checked against the sender's time budget. */
  firstSlot: number;
  /** Whether a retry on this slot still starts within the sender's time budget. */
  startsInTime: (slot: number) => boolean;
  send: () => Promise<O>;
  /**
   * Asked right before each attempt, after the slot's wait: false withdraws the send (nothing goes
   * out). A cancelled job's claimed recipients may wait seconds for their slots; this keeps them
   * from going out after the cancellation.
   */
  stillWanted?: () => Promise<boolean>;
}

export async function dispatchSend<O extends SendOutcome>(session: SendSession, request: SendRequest<O>): Promise<Dispatched<O>> {
  const { clock, sleep, random, pacer } = session.ports;
  let lastRejection: Rejection | undefined;
  for (let attempt = 1; ; attempt += 1) {
    const slot = attempt === 1 ? request.firstSlot : await session.slots.take();
    if (lastRejection && !request.startsInTime(slot)) {
      // No time left for another attempt: it ends as if the attempts had run out.
      session.slots.giveBack(slot);
      return { kind: 'failed', rejection: lastRejection, attempts: attempt - 1, outOfTime: true };
    }
    const wait = slot - clock.now().getTime();
    if (wait > 0) await sleep(wait);
    if (request.stillWanted && !(await request.stillWanted())) return { kind: 'withdrawn', attempts: attempt - 1 };
    const verdict = classifyOutcome(await request.send(), attempt, session.budget);
    switch (verdict.kind) {
      case 'sent':
        session.hold.reset();
        return { kind: 'sent', messageId: verdict.messageId, attempts: attempt, ...(verdict.held ? { held: true as const } : {}) };
      case 'unknown':
        return { kind: 'unknown', outcome: verdict.outcome, attempts: attempt };
      case 'failed':
        return { kind: 'failed', rejection: verdict.rejection, attempts: attempt };
      case 'retry':
        lastRejection = verdict.rejection;
        if (verdict.rateLimited) await pacer.holdUntil(session.accountKey, clock.now().getTime() + session.hold.next());
        await sleep(fullJitterDelay(attempt, session.policy.backoff, random));
    }
  }
}
