/**
 * FrequencyCapStore in memory: each person's counted sends, decided by the same rule as the DynamoDB
 * adapter (shared/send-rules/frequency-cap-rule.ts). A JavaScript turn is atomic, so concurrent
 * reservations are exact here as the adapter's conditional writes make them there.
 */
import type { CappedSend, CapReservation, FrequencyCapStore } from '../../shared/send-rules/ports';
import { decideReservation } from '../../shared/send-rules/frequency-cap-rule';

export class InMemoryFrequencyCapStore implements FrequencyCapStore {
  private readonly people = new Map<string, Record<string, number>>();

  async reserve(organizationId: string, personKey: string, send: CappedSend, limit: { count: number; perDays: number }): Promise<CapReservation> {
    const key = `${organizationId}\n${personKey}`;
    const decision = decideReservation(this.people.get(key) ?? {}, send.sendId, send.at.getTime(), limit);
    if (decision.store) this.people.set(key, decision.store);
    return decision.answer;
  }

  async release(organizationId: string, personKey: string, sendId: string): Promise<void> {
    const sends = this.people.get(`${organizationId}\n${personKey}`);
    if (sends) delete sends[sendId];
  }

  /** The send ids counted for a person now (tests). */
  countedFor(organizationId: string, personKey: string): string[] {
    return Object.keys(this.people.get(`${organizationId}\n${personKey}`) ?? {}).sort();
  }
}
