import type { ListResult, ListWindow } from '../../shared/inbox/inbox-entities';
import { isOptedOut, optOutOf, type OptOutRecord } from '../../shared/inbox/opt-out-record';
import type { OptOut, OptOutChange, OptOutRepository } from '../../shared/inbox/opt-outs';
import { optOutKeyOf } from '../../shared/recipients/opt-out-key';

/**
 * The suppression store in memory, with the DynamoDB adapter's semantics: one record per opt-out
 * key, changed by `updateOptOut`'s decision (one at a time: JavaScript runs each decision and its
 * write in one step), the list ascending by key, numbers taken off the list kept as records.
 */
export class InMemoryOptOutRepository implements OptOutRepository {
  /** Records by organization, then by opt-out key. */
  readonly records = new Map<string, Map<string, OptOutRecord>>();
  batchGetCalls = 0;
  writes = 0;

  private of(organizationId: string): Map<string, OptOutRecord> {
    let list = this.records.get(organizationId);
    if (!list) this.records.set(organizationId, (list = new Map()));
    return list;
  }

  async updateOptOut(organizationId: string, phoneNumber: string, change: OptOutChange): Promise<{ before?: OptOutRecord; after?: OptOutRecord }> {
    const list = this.of(organizationId);
    const key = optOutKeyOf(phoneNumber);
    const before = list.get(key);
    const after = change(before && { ...before });
    if (after === undefined) {
      if (before !== undefined) throw new TypeError('An opt-out record is never deleted');
      return {};
    }
    if (before === undefined || JSON.stringify(after) !== JSON.stringify(before)) {
      list.set(key, { ...after });
      this.writes += 1;
    }
    return { ...(before ? { before } : {}), after: { ...after } };
  }

  /** The numbers on the organization's list, by key. */
  onList(organizationId: string): string[] {
    return [...this.of(organizationId).entries()]
      .filter(([, record]) => isOptedOut(record))
      .map(([key]) => key)
      .sort();
  }

  async listOptOuts(organizationId: string, window: ListWindow): Promise<ListResult<OptOut>> {
    const all = [...this.of(organizationId).entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .flatMap(([, record]) => (isOptedOut(record) ? [optOutOf(record)] : []));
    return { items: all.slice(window.offset, window.offset + window.limit), total: all.length };
  }

  /** OptOutKeyPages (shared/audiences/ports.ts): the keys on the list, ascending, a page after the cursor's key. */
  async optedOutKeys(organizationId: string, page: { limit: number; cursor?: string }): Promise<{ keys: string[]; nextCursor?: string }> {
    const after = this.onList(organizationId).filter((key) => page.cursor === undefined || key > page.cursor);
    const keys = after.slice(0, page.limit);
    return after.length > page.limit ? { keys, nextCursor: keys.at(-1)! } : { keys };
  }

  async findSuppressed(organizationId: string, phoneNumbers: readonly string[]): Promise<Set<string>> {
    this.batchGetCalls += Math.ceil(new Set(phoneNumbers).size / 100);
    const list = this.of(organizationId);
    return new Set(phoneNumbers.filter((phoneNumber) => isOptedOut(list.get(optOutKeyOf(phoneNumber)))));
  }

  async recordsOf(organizationId: string, keys: readonly string[]): Promise<Map<string, OptOutRecord>> {
    this.batchGetCalls += Math.ceil(new Set(keys).size / 100);
    const list = this.of(organizationId);
    return new Map(
      keys.flatMap((key) => {
        const record = list.get(optOutKeyOf(key));
        return record ? [[key, { ...record }] as const] : [];
      }),
    );
  }

  /** Test seeding: puts the number on the list as `source` added it at `createdAt`. */
  seed(organizationId: string, optOut: OptOut): void {
    this.of(organizationId).set(optOutKeyOf(optOut.phoneNumber), { state: 'opted-out', ...optOut });
  }
}
