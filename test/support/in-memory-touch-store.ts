/**
 * TouchStore in memory: the latest touch per (organization, person key), keeping the newer `at`
 * as the DynamoDB adapter's conditional write does. `writes` counts the writes that replaced
 * something, `offered` every (person key, touch) handed to the store (a conditional write each in
 * the adapter, replacing or not), `reads` the latestTouch calls (the cost figures of docs/OUTCOMES.md).
 */
import type { Touch, TouchStore } from '../../shared/outcomes/ports';

export class InMemoryTouchStore implements TouchStore {
  private readonly touches = new Map<string, Touch>();
  writes = 0;
  offered = 0;
  reads = 0;

  async recordTouches(organizationId: string, touches: ReadonlyArray<{ personKeys: readonly string[]; touch: Touch }>): Promise<void> {
    for (const { personKeys, touch } of touches) {
      for (const key of new Set(personKeys)) {
        this.offered += 1;
        const kept = this.touches.get(`${organizationId}\n${key}`);
        // The DynamoDB adapter's rule: only a newer touch of another send replaces the kept one.
        if (kept && (kept.at >= touch.at || (kept.jobId === touch.jobId && kept.index === touch.index))) continue;
        this.touches.set(`${organizationId}\n${key}`, { ...touch });
        this.writes += 1;
      }
    }
  }

  async latestTouch(organizationId: string, personKeys: readonly string[]): Promise<Touch | undefined> {
    this.reads += 1;
    let newest: Touch | undefined;
    for (const key of new Set(personKeys)) {
      const kept = this.touches.get(`${organizationId}\n${key}`);
      if (kept && (newest === undefined || kept.at > newest.at)) newest = kept;
    }
    return newest && { ...newest };
  }
}
