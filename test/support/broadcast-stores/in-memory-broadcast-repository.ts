/**
 * Every broadcast store in memory over one shared state, as the use cases and the chunk worker take
 * them (one `broadcasts` object): the per-store fakes combined, plus the state tests inspect
 * (`jobs`, `entry`, `callsOf`, `failWhen`, …).
 */
import type { ChunkProgressStore, JobControlStore, JobStore, RecipientLedger } from '../../../shared/broadcast/ports';
import { combinePorts } from '../../../shared/ports/combine-ports';
import { InMemoryBroadcastState } from './in-memory-broadcast-state';
import { InMemoryChunkProgressStore } from './in-memory-chunk-progress-store';
import { InMemoryJobControlStore } from './in-memory-job-control-store';
import { InMemoryJobStore } from './in-memory-job-store';
import { InMemoryRecipientLedger } from './in-memory-recipient-ledger';

// The store methods are the per-store fakes', set on the instance by the constructor (declaration
// merging gives the class their types; `stores` below is checked against all of them).
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the merge is the point: see the comment above
export interface InMemoryBroadcastRepository extends JobStore, JobControlStore, RecipientLedger, ChunkProgressStore {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class InMemoryBroadcastRepository extends InMemoryBroadcastState {
  constructor() {
    super();
    const jobs: JobStore = new InMemoryJobStore(this);
    const control: JobControlStore = new InMemoryJobControlStore(this);
    const ledger: RecipientLedger = new InMemoryRecipientLedger(this);
    const progress: ChunkProgressStore = new InMemoryChunkProgressStore(this);
    const stores: JobStore & JobControlStore & RecipientLedger & ChunkProgressStore = combinePorts(jobs, control, ledger, progress);
    Object.assign(this, stores);
  }
}
