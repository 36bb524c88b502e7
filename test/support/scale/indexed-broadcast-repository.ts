/**
 * The in-memory broadcast stores with the ledger indexed by chunk: the shared fake finds a chunk's
 * entries by scanning the whole ledger (fine for a test's few hundred entries), which at the
 * simulation's hundreds of thousands made every reconcile cost the whole ledger (quadratic). Same
 * semantics; only the lookup changes.
 */
import type { LedgerEntry } from '../../../shared/broadcast/ports';
import { InMemoryBroadcastRepository } from '../broadcast-fakes';
import { copy } from '../broadcast-stores/in-memory-broadcast-state';

/** A Map of ledger entries (`<job>#<chunk>#<index>`) that also keeps each chunk's ids. */
class ChunkIndexedLedger extends Map<string, LedgerEntry> {
  readonly byChunk = new Map<string, Set<string>>();

  override set(id: string, entry: LedgerEntry): this {
    const chunkId = id.slice(0, id.lastIndexOf('#'));
    let ids = this.byChunk.get(chunkId);
    if (!ids) this.byChunk.set(chunkId, (ids = new Set()));
    ids.add(id);
    return super.set(id, entry);
  }

  override delete(id: string): boolean {
    this.byChunk.get(id.slice(0, id.lastIndexOf('#')))?.delete(id);
    return super.delete(id);
  }
}

export class IndexedBroadcastRepository extends InMemoryBroadcastRepository {
  private readonly indexed = new ChunkIndexedLedger();

  constructor() {
    super();
    // The stores read `state.ledger` at each call: this Map serves them from now on (it is empty yet).
    Object.defineProperty(this, 'ledger', { value: this.indexed });
  }

  override entriesOf(jobId: string, chunkIndex: number): LedgerEntry[] {
    const ids = this.indexed.byChunk.get(`${jobId}#${chunkIndex}`) ?? [];
    return [...ids].map((id) => copy(this.indexed.get(id)!)).sort((a, b) => a.index - b.index);
  }
}
