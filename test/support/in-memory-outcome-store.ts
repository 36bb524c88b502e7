/** OutcomeStore in memory: the same member rules as the DynamoDB adapter (messaging-tally-outcomes.ts), so both pass one contract. */
import type { LedgerApplyResult, LedgerLocation } from '../../shared/delivery/ports';
import { TALLY_BUCKET_SIZE } from '../../shared/delivery/recipient-status';
import type { OutcomeEvent, OutcomeFacts } from '../../shared/outcomes/outcome-facts';
import type { ClickRecorded, OutcomeStore } from '../../shared/outcomes/ports';
import { OUTCOME_SETS, outcomeMemberOf, outcomeSlotsOf, slotHasMember } from '../../shared/adapters/dynamodb/messaging-tally-outcomes';

export class InMemoryOutcomeStore implements OutcomeStore {
  /** Tally-like items by `<jobId>#<bucket>`: set name → members. */
  readonly items = new Map<string, Record<string, Set<number | string>>>();
  /** Every recordOutcomes call, for tests that count writes. */
  readonly writes: Array<{ jobId: string; index: number; event: OutcomeEvent }> = [];

  async recordOutcomes(jobId: string, events: ReadonlyArray<{ location: LedgerLocation; event: OutcomeEvent }>): Promise<LedgerApplyResult[]> {
    return events.map(({ location, event }) => {
      this.writes.push({ jobId, index: location.index, event });
      const bucket = Math.floor(location.index / TALLY_BUCKET_SIZE);
      const { set, member } = outcomeMemberOf(location.index - bucket * TALLY_BUCKET_SIZE, event);
      const item = this.itemOf(jobId, bucket);
      const members = (item[set] ??= new Set());
      if (members.has(member)) return 'unchanged';
      members.add(member);
      return 'applied';
    });
  }

  async recordClick(location: LedgerLocation, at: Date): Promise<ClickRecorded> {
    const bucket = Math.floor(location.index / TALLY_BUCKET_SIZE);
    const slot = location.index - bucket * TALLY_BUCKET_SIZE;
    const old = new Set(this.itemOf(location.jobId, bucket)[OUTCOME_SETS.click] ?? []);
    const [result] = await this.recordOutcomes(location.jobId, [{ location, event: { kind: 'click', at } }]);
    if (result === 'unchanged') return 'unchanged';
    return slotHasMember(old, slot) ? 'again' : 'first';
  }

  async outcomesOf(jobId: string, index: number): Promise<OutcomeFacts> {
    const bucket = Math.floor(index / TALLY_BUCKET_SIZE);
    const item = this.items.get(`${jobId}#${bucket}`);
    return (item && outcomeSlotsOf({ sk: `TALLY#${bucket}`, ...item }).get(index - bucket * TALLY_BUCKET_SIZE)) ?? {};
  }

  /** Every recipient's outcomes of a job, by index (what a summary reader counts). */
  outcomesOfJob(jobId: string): Map<number, OutcomeFacts> {
    const found = new Map<number, OutcomeFacts>();
    for (const [key, item] of this.items) {
      const [owner, bucket] = [key.slice(0, key.lastIndexOf('#')), Number(key.slice(key.lastIndexOf('#') + 1))];
      if (owner !== jobId) continue;
      for (const [slot, facts] of outcomeSlotsOf({ sk: `TALLY#${bucket}`, ...item })) found.set(bucket * TALLY_BUCKET_SIZE + slot, facts);
    }
    return found;
  }

  private itemOf(jobId: string, bucket: number): Record<string, Set<number | string>> {
    const key = `${jobId}#${bucket}`;
    let item = this.items.get(key);
    if (!item) this.items.set(key, (item = {}));
    return item;
  }
}
