/**
 * The delivery processor's AccountRefusalSink answered by the broadcast module's account hold
 * (shared/broadcast/account-hold.ts): a `failed` status whose code refuses the business account
 * (131042, a payment problem) holds the recipient's job and the account's other running jobs until
 * the business resumes them, as the same refusal on a send does. Other codes change nothing.
 */
import { accountHoldFrom, holdAccountJobs, type AccountHoldPorts } from '../broadcast/account-hold';
import type { AccountRefusalSink } from '../delivery/ports';

export class BroadcastAccountRefusals implements AccountRefusalSink {
  constructor(private readonly ports: AccountHoldPorts) {}

  async failedWith(jobId: string, error: { code: number; title: string }): Promise<void> {
    const hold = accountHoldFrom({ code: error.code, message: error.title }, this.ports.clock.now());
    if (hold) await holdAccountJobs(this.ports, jobId, hold);
  }
}
