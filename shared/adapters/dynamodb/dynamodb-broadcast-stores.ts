/** The broadcast stores' DynamoDB adapters by the names compositions ask for them. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChunkProgressStore, JobControlStore, JobStore, RecipientLedger } from '../../broadcast/broadcast-stores';
import { combinePorts, type CombinedPorts } from '../../ports/combine-ports';
import { DynamoDbChunkProgressStore } from './dynamodb-chunk-progress-store';
import { DynamoDbJobControlStore } from './dynamodb-job-control-store';
import { DynamoDbJobStore } from './dynamodb-job-store';
import { DynamoDbRecipientLedger } from './dynamodb-recipient-ledger';

export interface BroadcastStoreByName {
  jobs: JobStore;
  control: JobControlStore;
  ledger: RecipientLedger;
  progress: ChunkProgressStore;
}

export type BroadcastStoreName = keyof BroadcastStoreByName;

/** The named stores as one object: what a use case taking `broadcasts: JobStore & …` gets. */
export type BroadcastStores<Name extends BroadcastStoreName> = CombinedPorts<Array<BroadcastStoreByName[Name]>>;

const adapters: { [Name in BroadcastStoreName]: new (client: DynamoDBDocumentClient, tableName: string) => BroadcastStoreByName[Name] } = {
  jobs: DynamoDbJobStore,
  control: DynamoDbJobControlStore,
  ledger: DynamoDbRecipientLedger,
  progress: DynamoDbChunkProgressStore,
};

/**
 * The adapters of the named stores over one messaging table, combined.
 *
 * @example
 * const broadcasts = dynamoDbBroadcastStores(document, 'messaging', ['jobs', 'progress']);
 * await broadcasts.getJobProgress((await broadcasts.getJob('pub_1'))!.jobId);
 */
export function dynamoDbBroadcastStores<const Names extends readonly BroadcastStoreName[]>(
  client: DynamoDBDocumentClient,
  tableName: string,
  names: Names,
): BroadcastStores<Names[number]> {
  return combinePorts(...names.map((name) => new adapters[name](client, tableName))) as BroadcastStores<Names[number]>;
}
