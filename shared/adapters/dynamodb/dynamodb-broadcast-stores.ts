/**
 * The broadcast stores' DynamoDB adapters as compositions ask for them: one adapter per store, each
 * its own export, so a function's bundle carries only the adapters it names (a table of all four
 * would bring every adapter into every bundle that reads one).
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChunkProgressStore, JobControlStore, JobStore, RecipientLedger } from '../../broadcast/broadcast-stores';
import { combinePorts, type CombinedPorts } from '../../ports/combine-ports';
import { DynamoDbChunkProgressStore } from './dynamodb-chunk-progress-store';
import { DynamoDbJobControlStore } from './dynamodb-job-control-store';
import { DynamoDbJobStore } from './dynamodb-job-store';
import { DynamoDbRecipientLedger } from './dynamodb-recipient-ledger';

/** A broadcast store's adapter over the messaging table, typed as the port it implements. */
export type BroadcastStoreAdapter<Port extends object> = (client: DynamoDBDocumentClient, tableName: string) => Port;

export const jobStoreAdapter: BroadcastStoreAdapter<JobStore> = (client, tableName) => new DynamoDbJobStore(client, tableName);
export const jobControlAdapter: BroadcastStoreAdapter<JobControlStore> = (client, tableName) => new DynamoDbJobControlStore(client, tableName);
export const recipientLedgerAdapter: BroadcastStoreAdapter<RecipientLedger> = (client, tableName) => new DynamoDbRecipientLedger(client, tableName);
export const chunkProgressAdapter: BroadcastStoreAdapter<ChunkProgressStore> = (client, tableName) => new DynamoDbChunkProgressStore(client, tableName);

/** All four, for the functions that use every broadcast store (the chunk worker, the expander, the accept, the dead letters). */
export const everyBroadcastStoreAdapter = [jobStoreAdapter, jobControlAdapter, recipientLedgerAdapter, chunkProgressAdapter] as const;

type PortOf<Adapter> = Adapter extends BroadcastStoreAdapter<infer Port> ? Port : never;

/** The given adapters' stores as one object: what a use case taking `broadcasts: JobStore & …` gets. */
export type BroadcastStores<Adapters extends readonly BroadcastStoreAdapter<object>[]> = CombinedPorts<Array<PortOf<Adapters[number]>>>;

/**
 * The given adapters' stores over one messaging table, combined.
 *
 * @example
 * const broadcasts = dynamoDbBroadcastStores(document, 'messaging', [jobStoreAdapter, chunkProgressAdapter]);
 * await broadcasts.getJobProgress((await broadcasts.getJob('pub_1'))!.jobId);
 */
export function dynamoDbBroadcastStores<const Adapters extends readonly BroadcastStoreAdapter<object>[]>(
  client: DynamoDBDocumentClient,
  tableName: string,
  adapters: Adapters,
): BroadcastStores<Adapters> {
  return combinePorts(...adapters.map((adapter) => adapter(client, tableName))) as BroadcastStores<Adapters>;
}
