/**
 * Countries Meta refused for the job's account (130497: the account may not message users of that
 * country; docs/BROADCAST.md "When Meta refuses a country"): only that country's recipients stop,
 * the job goes on. The first refusal is recorded on the job (`refuseCountry`); every worker of the
 * job learns it at its job-control reads, and claims the country's other recipients FAILED `130497`
 * before any send. Recipients of that country already in flight may still be refused one by one.
 */
import { callingCodeOf } from '../../recipients/calling-code';
import type { ChunkRecipient } from '../chunk-message';
import type { JobControl, JobControlStore } from '../ports';

/** The reason the country's other recipients are failed with: Meta's code, as if each had been refused. */
export const COUNTRY_REFUSED_REASON = '130497';

export class RefusedCountries {
  private readonly codes: Set<string>;

  constructor(
    private readonly store: Pick<JobControlStore, 'refuseCountry'>,
    private readonly jobId: string,
    control: Pick<JobControl, 'refusedCountries'>,
  ) {
    this.codes = new Set(control.refusedCountries ?? []);
  }

  /** Whether the recipient's country was refused (a recipient of no known country never is). */
  refuses(recipient: Pick<ChunkRecipient, 'to'>): boolean {
    if (this.codes.size === 0) return false;
    const code = callingCodeOf(recipient.to);
    return code !== undefined && this.codes.has(code);
  }

  /** What a job-control read says (another worker's refusal). */
  learn(control: Pick<JobControl, 'refusedCountries'>): void {
    for (const code of control.refusedCountries ?? []) this.codes.add(code);
  }

  /** Meta refused `recipient` with 130497: its country is refused for the whole job (recorded once per worker). */
  async refuse(recipient: Pick<ChunkRecipient, 'to'>): Promise<void> {
    const code = callingCodeOf(recipient.to);
    if (code === undefined || this.codes.has(code)) return;
    this.codes.add(code);
    await this.store.refuseCountry(this.jobId, code);
  }
}
