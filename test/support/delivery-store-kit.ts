/**
 * The delivery store on dynalite, shared by the event path's suites on a real table
 * (test/integration/delivery/dynamodb-ledger-delivery-store.test.ts, tally-fact-writes.test.ts):
 * the broadcast stores and the delivery store over one table, a one-chunk job, and the outcomes
 * and Meta's status events of its recipients.
 */
import {
  chunkProgressAdapter,
  dynamoDbBroadcastStores,
  jobStoreAdapter,
  recipientLedgerAdapter,
} from '../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import { DynamoDbLedgerDeliveryStore } from '../../shared/adapters/dynamodb/dynamodb-ledger-delivery-store';
import type { BroadcastJob } from '../../shared/broadcast/broadcast-job';
import type { ChunkProgressStore, JobStore, LedgerEntry, RecipientLedger } from '../../shared/broadcast/ports';
import type { StatusEvent } from '../../shared/delivery/ports';
import { startTestDynamo, type TestDynamo } from './dynalite';

export interface DeliveryStores {
  dynamo: TestDynamo;
  repository: JobStore & RecipientLedger & ChunkProgressStore;
  store: DynamoDbLedgerDeliveryStore;
}

/** dynalite with the messaging table, the broadcast stores and the delivery store on it. */
export async function startDeliveryStores(): Promise<DeliveryStores> {
  const dynamo = await startTestDynamo();
  return {
    dynamo,
    repository: dynamoDbBroadcastStores(dynamo.documentClient, dynamo.tableNames.messaging, [jobStoreAdapter, recipientLedgerAdapter, chunkProgressAdapter]),
    store: new DynamoDbLedgerDeliveryStore(dynamo.documentClient, dynamo.tableNames.messaging),
  };
}

/** The stores for the suite: started before it, `started` handed them, the emulator stopped after it. */
export function useDeliveryStores(started: (stores: DeliveryStores) => void): void {
  let dynamo: TestDynamo | undefined;
  beforeAll(async () => {
    const stores = await startDeliveryStores();
    dynamo = stores.dynamo;
    started(stores);
  }, 20_000);
  afterAll(async () => {
    await dynamo?.stop();
  });
}

export const now = new Date('2026-03-01T09:00:00.000Z');
export const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
export const to = (index: number) => `9198${String(index).padStart(8, '0')}`;

let jobCounter = 0;

/** A one-chunk template job of `recipients`, created in the store; its id. */
export async function newJob(repository: JobStore, recipients: number): Promise<string> {
  const job: BroadcastJob = {
    kind: 'template',
    jobId: `pub_delivery${(jobCounter += 1)}`,
    organizationId: 'org_1',
    broadcastName: 'delivery',
    exposed: true,
    wabaId: 'waba_1',
    phoneNumberId: 'pn_1',
    fromPhoneNumber: '919800000001',
    template: { name: 'order_update', language: 'en_US', category: 'UTILITY', id: 'tpl_1' },
    totalRecipients: recipients,
    totalChunks: 1,
    chunkSize: 1000,
    createdAt: now.toISOString(),
  };
  await repository.createJob(job, [recipients]);
  return job.jobId;
}

/** The worker's outcome of recipient `index` (a SENT one carries `wamid.<index>`). */
export const outcome = (index: number, status: LedgerEntry['status'], extra: Partial<LedgerEntry> = {}): LedgerEntry => ({
  index,
  to: to(index),
  status,
  attempts: 1,
  updatedAt: now.toISOString(),
  ...(status === 'SENT' ? { messageId: `wamid.${index}` } : {}),
  ...extra,
});

/** Meta's status event of recipient `index`'s message, `seconds` after `now`. */
export const event = (index: number, stage: StatusEvent['stage'], seconds: number, extra: Partial<StatusEvent> = {}): StatusEvent => ({
  messageId: `wamid.${index}`,
  stage,
  timestamp: at(seconds),
  recipientId: to(index),
  ...extra,
});
