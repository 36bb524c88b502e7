import type { ListResult, ListWindow } from '../../shared/inbox/inbox-entities';
import type { OptOut, OptOutRepository } from '../../shared/inbox/opt-outs';

/** The suppression store in memory, with the DynamoDB adapter's semantics (put if absent, ascending by number). */
export class InMemoryOptOutRepository implements OptOutRepository {
  readonly entries = new Map<string, Map<string, OptOut>>();
  batchGetCalls = 0;

  private of(organizationId: string): Map<string, OptOut> {
    let list = this.entries.get(organizationId);
    if (!list) this.entries.set(organizationId, (list = new Map()));
    return list;
  }

  async addOptOut(organizationId: string, optOut: OptOut): Promise<{ added: boolean; optOut: OptOut }> {
    const list = this.of(organizationId);
    const existing = list.get(optOut.phoneNumber);
    if (existing) return { added: false, optOut: { ...existing } };
    list.set(optOut.phoneNumber, { ...optOut });
    return { added: true, optOut: { ...optOut } };
  }

  async removeOptOut(organizationId: string, phoneNumber: string): Promise<boolean> {
    return this.of(organizationId).delete(phoneNumber);
  }

  async listOptOuts(organizationId: string, window: ListWindow): Promise<ListResult<OptOut>> {
    const all = [...this.of(organizationId).values()].sort((a, b) => (a.phoneNumber < b.phoneNumber ? -1 : 1));
    return { items: all.slice(window.offset, window.offset + window.limit), total: all.length };
  }

  async findSuppressed(organizationId: string, phoneNumbers: readonly string[]): Promise<Set<string>> {
    this.batchGetCalls += Math.ceil(new Set(phoneNumbers).size / 100);
    const list = this.of(organizationId);
    return new Set(phoneNumbers.filter((phoneNumber) => list.has(phoneNumber)));
  }
}
