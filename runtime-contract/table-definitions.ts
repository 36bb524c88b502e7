/**
 * The DynamoDB tables as plain data: their keys, indexes, expiry attribute and the environment
 * variable that names each to the code. The CDK app and the local runtime build them from it; a
 * function's configuration reads only the variables (shared/config/app-config.ts), so this module
 * stays small and free of the function definitions (resource-definitions.ts re-exports it).
 */
export type TableName = 'tenancy' | 'messaging' | 'idempotency' | 'rateLimits' | 'inbox' | 'audit';

export interface TableDefinition {
  name: TableName;
  /** Environment variable that carries the physical table name to the code. */
  envVar: string;
  partitionKey: string;
  sortKey?: string;
  globalIndexes: Array<{ indexName: string; partitionKey: string; sortKey: string }>;
  /** Epoch-seconds attribute DynamoDB expires items by. Code still checks it: expiry is lazy
   * in AWS (up to days) and absent in dynalite. */
  timeToLiveAttribute?: string;
  /** Holds data that must survive a stack deletion. */
  retainOnDelete: boolean;
}

/** Every index follows one naming: `gsiN` keyed by `gsiNpk` and `gsiNsk`. */
const globalIndex = (n: number) => ({ indexName: `gsi${n}`, partitionKey: `gsi${n}pk`, sortKey: `gsi${n}sk` });

export const tables: Record<TableName, TableDefinition> = {
  tenancy: {
    name: 'tenancy',
    envVar: 'TENANCY_TABLE',
    partitionKey: 'pk',
    sortKey: 'sk',
    globalIndexes: [globalIndex(1)],
    retainOnDelete: true,
  },
  messaging: {
    name: 'messaging',
    envVar: 'MESSAGING_TABLE',
    partitionKey: 'pk',
    sortKey: 'sk',
    globalIndexes: [
      globalIndex(1),
      /** Sparse: scheduled jobs not yet fired (`SCHEDULED` / `<scheduledAt>#<jobId>`), read by the sweep. */
      globalIndex(2),
    ],
    timeToLiveAttribute: 'expiresAt',
    retainOnDelete: true,
  },
  idempotency: {
    name: 'idempotency',
    envVar: 'IDEMPOTENCY_TABLE',
    partitionKey: 'pk',
    globalIndexes: [],
    timeToLiveAttribute: 'expiresAt',
    retainOnDelete: false,
  },
  rateLimits: {
    name: 'rateLimits',
    envVar: 'RATE_LIMIT_TABLE',
    partitionKey: 'pk',
    globalIndexes: [],
    timeToLiveAttribute: 'expiresAt',
    retainOnDelete: false,
  },
  /** Generic v1 API: contacts, conversations, their uniqueness claims and per-organization counters (docs/DATA-MODEL.md). */
  inbox: {
    name: 'inbox',
    envVar: 'INBOX_TABLE',
    partitionKey: 'pk',
    sortKey: 'sk',
    globalIndexes: [globalIndex(1)],
    retainOnDelete: true,
  },
  /**
   * The audit log (docs/PEOPLE.md "Audit log", keys: shared/adapters/dynamodb/audit-items.ts): one
   * item per state-changing call, an organization's entries one partition newest last; gsi1 by
   * actor, gsi2 by action. Kept 400 days (`expiresAt`, checked on read as well).
   */
  audit: {
    name: 'audit',
    envVar: 'AUDIT_TABLE',
    partitionKey: 'pk',
    sortKey: 'sk',
    globalIndexes: [globalIndex(1), globalIndex(2)],
    timeToLiveAttribute: 'expiresAt',
    retainOnDelete: true,
  },
};
