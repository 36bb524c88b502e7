/** Tests' view of a job's chunks: what the ChunkProgressStore port answers (there is no separate read of chunks alone). */
import type { ChunkProgress } from '../../shared/broadcast/broadcast-job';
import type { ChunkProgressStore } from '../../shared/broadcast/ports';

/** The job's chunks in chunk order, as `getJobProgress` reads them (a job that does not exist has none). */
export async function chunkProgressOf(stores: Pick<ChunkProgressStore, 'getJobProgress'>, jobId: string): Promise<ChunkProgress[]> {
  return (await stores.getJobProgress(jobId)).chunks;
}
