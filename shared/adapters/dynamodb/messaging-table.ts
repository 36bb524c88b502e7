/**
 * The messaging table: every key and item shape in one place (docs/DATA-MODEL.md, "Messaging table").
 *
 *   pk JOB#<jobId>                 sk JOB            the job (+ gsi1: ORG#<org>#JOBS / createdAt)
 *   pk JOB#<jobId>                 sk CHUNK#<0000>   a chunk: recipientCount, live counters, doneAt
 *   pk LEDGER#<jobId>#<chunk>      sk R#<00000>      one recipient: SENDING → SENT | FAILED | UNKNOWN
 *                                                    (or CANCELLED, claimed after the job's cancelledAt)
 *                                                    (entries written before the WAMID records: + gsi1
 *                                                    WAMID#<message id> / LEDGER, still read as a fallback)
 *   pk WAMID#<message id>          sk LEDGER         which ledger entry sent a message id (jobId, chunkIndex,
 *                                                    index): its own item, not a gsi1 copy of the entry, so
 *                                                    Meta's three events per message do not rewrite an index
 *   pk JOB#<jobId>                 sk TALLY#<0000>   50 recipients' status codes (r<00000> attributes,
 *                                                    shared/delivery/recipient-status.ts): the summary's counts
 *   pk JOB#<jobId>                 sk RECIPIENTS#<0000>  a chunk's recipients as accepted (countryCode,
 *                                                    toPhoneNumber per index): the recipients list
 *   pk JOB#<jobId>                 sk HELD#<0000>#<000>  a scheduled job's chunk message (one SQS body),
 *                                                    held until the job fires
 *   (job item of a scheduled job, until it fired: gsi2 SCHEDULED / <scheduledAt>#<jobId>, the due index)
 *   pk PACE#<accountKey>           sk PACE           a business account's next free send slot
 *   pk BCNAME#<org>#<name>         sk NAME           an earlier send-bulk campaign name's claim
 *   pk UPSTREAM#<org>#MEDIA#<id>   sk UPSTREAM_ID    a media id uploaded through /upstream
 *   pk UPSTREAM#<org>#MESSAGE#<id> sk UPSTREAM_ID    a message id sent (with its sendId) or received
 *   pk UPSTREAM#<org>#SEND#<id>    sk UPSTREAM_SEND  one /upstream send: outcome + Meta's facts
 *   pk TPLSTATE#<wabaId>           sk <name>#<lang>  a template's state from Meta's last event (30 days)
 *   pk PORTFOLIO#<businessId>      sk REACH#<YYYY-MM-DDTHH>  one hour of a business portfolio's recipients
 *                                                    (a reach sketch, binary; version; expires after 26 h)
 *   pk CEVENT#<org>                sk <createdAt>#<eventId>  a customer event, by time (redelivery by range)
 *   pk CEVENT#<org>#ID#<eventId>   sk EVENT          the same event by id: its put-if-absent makes a
 *                                                    republished id a no-op (30 days, expiresAt)
 *
 * Items are written from the domain types and read back through valibot schemas: a stored item
 * that does not match is an error here, never a wrongly typed value further on.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import * as v from 'valibot';
import { broadcastJobSchema, type BroadcastJob, type ChunkProgress } from '../../broadcast/broadcast-job';
import type { ClaimState, LedgerEntry } from '../../broadcast/ports';
import type { JobRecipient } from '../../broadcast/ports';
import type { StatusEvent } from '../../delivery/ports';
import { TALLY_BUCKET_SIZE, type DeliveryFacts, type DeliveryStage, type TallyCode } from '../../delivery/recipient-status';

export class MalformedMessagingItemError extends Error {
  override readonly name = 'MalformedMessagingItemError';
  readonly code = 'MALFORMED_MESSAGING_ITEM';
}

type Item = Record<string, unknown>;

export const messagingKeys = {
  job: (jobId: string) => ({ pk: `JOB#${jobId}`, sk: 'JOB' }),
  /** Partition of a job and its chunks. */
  jobPartition: (jobId: string) => `JOB#${jobId}`,
  chunkPrefix: 'CHUNK#',
  chunk: (jobId: string, chunkIndex: number) => ({ pk: `JOB#${jobId}`, sk: `CHUNK#${String(chunkIndex).padStart(4, '0')}` }),
  ledgerPartition: (jobId: string, chunkIndex: number) => `LEDGER#${jobId}#${chunkIndex}`,
  ledger: (jobId: string, chunkIndex: number, index: number) => ({
    pk: `LEDGER#${jobId}#${chunkIndex}`,
    sk: `R#${String(index).padStart(5, '0')}`,
  }),
  /** gsi1 of a job: an organization's jobs by time. */
  organizationJobs: (organizationId: string, createdAt: string) => ({ gsi1pk: `ORG#${organizationId}#JOBS`, gsi1sk: createdAt }),
  /** gsi1 of a ledger entry sent before the WAMID records existed (read as a fallback only). */
  messageId: (messageId: string) => ({ gsi1pk: `WAMID#${messageId}`, gsi1sk: 'LEDGER' }),
  /** A sent message id's record: the ledger entry that sent it (delivery events without callback data, /upstream ownership). */
  messageIdRecord: (messageId: string) => ({ pk: `WAMID#${messageId}`, sk: 'LEDGER' }),
  /** Tally item of the recipients [bucket × 50, bucket × 50 + 49] of a job (TALLY_BUCKET_SIZE). */
  tally: (jobId: string, bucket: number) => ({ pk: `JOB#${jobId}`, sk: `TALLY#${String(bucket).padStart(4, '0')}` }),
  tallyPrefix: 'TALLY#',
  /** One held chunk message of a scheduled job (part: the chunk's n-th message when split to fit SQS). */
  held: (jobId: string, chunkIndex: number, part: number) => ({ pk: `JOB#${jobId}`, sk: `HELD#${String(chunkIndex).padStart(4, '0')}#${String(part).padStart(3, '0')}` }),
  heldPrefix: 'HELD#',
  /** gsi2 (sparse) of a scheduled job not yet fired: the sweep finds due jobs by time. */
  dueIndex: (scheduledAt: string, jobId: string) => ({ gsi2pk: 'SCHEDULED', gsi2sk: `${scheduledAt}#${jobId}` }),
  /** The recipients of one chunk as the request named them (one item per chunk, written with the job). */
  recipients: (jobId: string, chunkIndex: number) => ({ pk: `JOB#${jobId}`, sk: `RECIPIENTS#${String(chunkIndex).padStart(4, '0')}` }),
  /** The attribute of one recipient (its index in the request) inside its tally item. */
  tallyAttribute: (index: number) => `r${String(index).padStart(5, '0')}`,
  pacer: (accountKey: string) => ({ pk: `PACE#${accountKey}`, sk: 'PACE' }),
  /** Campaign names compare without case. */
  broadcastName: (organizationId: string, broadcastName: string) => ({ pk: `BCNAME#${organizationId}#${broadcastName.toLowerCase()}`, sk: 'NAME' }),
  /** A template's state from Meta's events; one partition per business account, read whole by the template catalog. */
  templateState: (wabaId: string, name: string, language: string) => ({ pk: `TPLSTATE#${wabaId}`, sk: `${name}#${language}` }),
  templateStatePartition: (wabaId: string) => `TPLSTATE#${wabaId}`,
  /** One UTC hour of a business portfolio's unique recipients (shared/broadcast/messaging-limit.ts). */
  portfolioReach: (businessId: string, hour: string) => ({ pk: `PORTFOLIO#${businessId}`, sk: `REACH#${hour}` }),
  portfolioPartition: (businessId: string) => `PORTFOLIO#${businessId}`,
  reachPrefix: 'REACH#',
  /** A media id uploaded or a message id sent through /upstream, under its organization (another's id is simply absent). */
  wrapperId: (organizationId: string, kind: 'MEDIA' | 'MESSAGE', id: string) => ({ pk: `UPSTREAM#${organizationId}#${kind}#${id}`, sk: 'UPSTREAM_ID' }),
  /** One send through /upstream (its `u1:<sendId>` callback data), under its organization: another's sendId is simply absent. */
  upstreamSend: (organizationId: string, sendId: string) => ({ pk: `UPSTREAM#${organizationId}#SEND#${sendId}`, sk: 'UPSTREAM_SEND' }),
  /** An organization's customer events by time; the sort key starts with the ISO time so ranges are key conditions. */
  customerEventPartition: (organizationId: string) => `CEVENT#${organizationId}`,
  customerEventByTime: (organizationId: string, createdAt: string, eventId: string) => ({ pk: `CEVENT#${organizationId}`, sk: `${createdAt}#${eventId}` }),
  customerEventById: (organizationId: string, eventId: string) => ({ pk: `CEVENT#${organizationId}#ID#${eventId}`, sk: 'EVENT' }),
} as const;

/** A recipient's slot in its job's tally items: the item (bucket of TALLY_BUCKET_SIZE) and its attribute. */
export const tallySlotOf = (jobId: string, index: number) => ({
  key: messagingKeys.tally(jobId, Math.floor(index / TALLY_BUCKET_SIZE)),
  attribute: messagingKeys.tallyAttribute(index),
});

/** Recipient index of a ledger item, from its sort key (`R#<00000>`). */
export function ledgerIndexOf(sk: unknown): number | undefined {
  const index = typeof sk === 'string' ? /^R#(\d+)$/.exec(sk) : null;
  return index ? Number(index[1]) : undefined;
}

/**
 * Codes grouped per tally item, for one UpdateItem per item: `SET r = if_not_exists(r, :code)`
 * (outcomes: a code an event or an earlier write set is never lowered).
 */
export function tallyOutcomeUpdates(jobId: string, codes: ReadonlyArray<{ index: number; code: TallyCode }>, expiresAt: number) {
  const byItem = new Map<string, { key: { pk: string; sk: string }; codes: Map<string, TallyCode> }>();
  for (const { index, code } of codes) {
    const slot = tallySlotOf(jobId, index);
    let item = byItem.get(slot.key.sk);
    if (!item) {
      item = { key: slot.key, codes: new Map() };
      byItem.set(slot.key.sk, item);
    }
    item.codes.set(slot.attribute, code);
  }
  return [...byItem.values()].map(({ key, codes: attributes }) => {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':expiresAt': expiresAt };
    const assignments = ['expiresAt = if_not_exists(expiresAt, :expiresAt)'];
    [...attributes].forEach(([attribute, code], position) => {
      names[`#r${position}`] = attribute;
      values[`:c${position}`] = code;
      assignments.push(`#r${position} = if_not_exists(#r${position}, :c${position})`);
    });
    return { Key: key, UpdateExpression: `SET ${assignments.join(', ')}`, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
  });
}

/** Where a ledger item sits, from its partition key. */
export function ledgerLocationOf(pk: unknown): { jobId: string; chunkIndex: number } | undefined {
  const location = typeof pk === 'string' ? /^LEDGER#(.+)#(\d+)$/.exec(pk) : null;
  return location ? { jobId: location[1]!, chunkIndex: Number(location[2]) } : undefined;
}

/** Failure counts live in top-level attributes so they can be ADDed without creating a map first. */
export const FAILURE_PREFIX = 'fail#';
/** Jobs and their ledgers are kept for reporting and delivery matching, then expire. */
const RETENTION_SECONDS = 90 * 24 * 3600;
export const expiresAtFrom = (from: Date): number => Math.floor(from.getTime() / 1000) + RETENTION_SECONDS;

/* ---------------------------------------------------------------- jobs */

export function jobItem(job: BroadcastJob): Item {
  return {
    ...messagingKeys.job(job.jobId),
    ...job,
    ...messagingKeys.organizationJobs(job.organizationId, job.createdAt),
    ...(job.scheduledAt !== undefined && job.firedAt === undefined ? messagingKeys.dueIndex(job.scheduledAt, job.jobId) : {}),
    expiresAt: expiresAtFrom(new Date(job.createdAt)),
  };
}

/**
 * Jobs written before jobs had a `kind` carried a template on every job: free-form ones a fake
 * `freeform:<type>` template, earlier ones a `<mode>:<template>` name when no campaign name was given.
 */
function upgradeStoredJob(item: Item): Item {
  if (item.kind !== undefined) return item;
  const template = (item.template ?? {}) as { name?: unknown; category?: unknown };
  if (template.category === 'FREEFORM') return { ...item, kind: 'freeform', messageType: String(template.name ?? '').replace(/^freeform:/, '') };
  if (typeof item.jobId === 'string' && item.jobId.startsWith('leg_')) {
    const name = String(item.broadcastName ?? '');
    const mode = name.startsWith('single:') ? 'single' : 'bulk';
    const generated = name === `${mode}:${String(template.name)}`;
    return { ...item, kind: 'earlier', mode, broadcastName: generated ? undefined : name };
  }
  return { ...item, kind: 'template' };
}

/** The index key after which a listing of an organization's jobs continues (gsi1 + the table's key). */
export function organizationJobsStartKey(organizationId: string, after: { createdAt: string; jobId: string }): Item {
  return { ...messagingKeys.organizationJobs(organizationId, after.createdAt), ...messagingKeys.job(after.jobId) };
}

export function decodeJob(item: Item): BroadcastJob {
  const result = v.safeParse(broadcastJobSchema, upgradeStoredJob(item));
  if (!result.success) throw new MalformedMessagingItemError(`Stored job ${String(item.pk)} does not match the job schema: ${v.summarize(result.issues)}`);
  return result.output;
}

/* -------------------------------------------------------------- chunks */

export function newChunkItem(jobId: string, chunkIndex: number, recipientCount: number, expiresAt: number): Item {
  return { ...messagingKeys.chunk(jobId, chunkIndex), chunkIndex, recipientCount, sent: 0, failed: 0, unknown: 0, expiresAt };
}

const counter = v.optional(v.pipe(v.number(), v.integer()), 0);
const storedChunkSchema = v.looseObject({
  chunkIndex: v.pipe(v.number(), v.integer(), v.minValue(0)),
  recipientCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
  sent: counter,
  failed: counter,
  unknown: counter,
  startedAt: v.optional(v.string()),
  doneAt: v.optional(v.string()),
});

export function decodeChunk(item: Item): ChunkProgress {
  const result = v.safeParse(storedChunkSchema, item);
  if (!result.success) throw new MalformedMessagingItemError(`Stored chunk ${String(item.pk)} ${String(item.sk)} does not match the chunk schema`);
  const chunk = result.output;
  const failuresByReason: Record<string, number> = {};
  for (const [name, value] of Object.entries(item)) {
    if (name.startsWith(FAILURE_PREFIX) && Number(value) > 0) failuresByReason[name.slice(FAILURE_PREFIX.length)] = Number(value);
  }
  return {
    chunkIndex: chunk.chunkIndex,
    recipientCount: chunk.recipientCount,
    sent: chunk.sent,
    failed: chunk.failed,
    unknown: chunk.unknown,
    failuresByReason,
    started: chunk.startedAt !== undefined,
    done: chunk.doneAt !== undefined,
    ...(chunk.doneAt !== undefined ? { doneAt: chunk.doneAt } : {}),
  };
}

/** Reason names of the failure counters a chunk item holds. */
export const failureReasonsOf = (item: Item | undefined): string[] =>
  Object.keys(item ?? {})
    .filter((name) => name.startsWith(FAILURE_PREFIX))
    .map((name) => name.slice(FAILURE_PREFIX.length));

/* -------------------------------------------------------------- ledger */

const ledgerStatusSchema = v.picklist(['SENDING', 'SENT', 'FAILED', 'UNKNOWN', 'CANCELLED']);
const ledgerEntrySchema = v.object({
  index: v.pipe(v.number(), v.integer(), v.minValue(0)),
  to: v.string(),
  status: ledgerStatusSchema,
  messageId: v.optional(v.string()),
  failureReasonCode: v.optional(v.string()),
  attempts: v.pipe(v.number(), v.integer(), v.minValue(0)),
  updatedAt: v.string(),
});
// The schema must produce exactly the domain's entry.
const _ledgerEntryMatches: v.InferOutput<typeof ledgerEntrySchema> extends LedgerEntry ? true : never = true;
void _ledgerEntryMatches;

export function claimItem(jobId: string, chunkIndex: number, index: number, to: string, now: Date, claimToken: string, as: ClaimState = 'SENDING'): Item {
  const state = typeof as === 'string' ? { status: as } : { status: as.status, failureReasonCode: as.failureReasonCode };
  return { ...messagingKeys.ledger(jobId, chunkIndex, index), index, to, ...state, attempts: 0, claimToken, updatedAt: now.toISOString(), expiresAt: expiresAtFrom(now) };
}

/**
 * The worker's outcome as an UpdateItem of its own attributes only (never a whole-item put): the
 * delivery facts Meta's events add to the same entry (possibly first) stay untouched.
 */
export function outcomeUpdate(jobId: string, chunkIndex: number, entry: LedgerEntry, expiresAt: number) {
  // No gsi1 keys: the message id has its own record (messageIdRecordItem), so the entry is in no index
  // and the events' fact updates write the entry alone.
  const attributes: Record<string, unknown> = { ...entry, expiresAt };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const assignments = Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .map(([name, value], position) => {
      names[`#a${position}`] = name;
      values[`:a${position}`] = value;
      return `#a${position} = :a${position}`;
    });
  return {
    Key: messagingKeys.ledger(jobId, chunkIndex, entry.index),
    // The claim's token only guards the claim's own retries.
    UpdateExpression: `SET ${assignments.join(', ')} REMOVE claimToken`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** The record of a sent message id (one small item, written before the outcome that names it). */
export function messageIdRecordItem(messageId: string, location: { jobId: string; chunkIndex: number; index: number }, expiresAt: number): Item {
  return { ...messagingKeys.messageIdRecord(messageId), jobId: location.jobId, chunkIndex: location.chunkIndex, index: location.index, expiresAt };
}

const messageIdRecordSchema = v.object({ jobId: v.string(), chunkIndex: v.pipe(v.number(), v.integer(), v.minValue(0)), index: v.pipe(v.number(), v.integer(), v.minValue(0)) });

export function decodeMessageIdRecord(item: Item): { jobId: string; chunkIndex: number; index: number } {
  const result = v.safeParse(messageIdRecordSchema, item);
  if (!result.success) throw new MalformedMessagingItemError(`Stored message id record ${String(item.pk)} does not match its schema`);
  const { jobId, chunkIndex, index } = result.output;
  return { jobId, chunkIndex, index };
}

export function decodeLedgerEntry(item: Item): LedgerEntry {
  const result = v.safeParse(ledgerEntrySchema, item);
  if (!result.success) throw new MalformedMessagingItemError(`Stored ledger entry ${String(item.pk)} ${String(item.sk)} does not match the ledger schema`);
  return result.output;
}

/** A ledger item's status alone (reconcile reads only the status and the reason). */
export function decodeLedgerStatus(item: Item): { status: LedgerEntry['status']; failureReasonCode?: string } {
  const result = v.safeParse(v.object({ status: ledgerStatusSchema, failureReasonCode: v.optional(v.string()) }), item);
  if (!result.success) throw new MalformedMessagingItemError('Stored ledger entry has no valid status');
  return result.output;
}

/**
 * Meta's events on a ledger entry: first-seen timestamps per stage (ISO) and the failure, as
 * attributes of the entry itself (shared/delivery/recipient-status.ts). Written with
 * `if_not_exists`, so the worker's outcome write (which sets only its own attributes) and the events
 * never overwrite each other.
 */
const deliveryFactsSchema = v.object({
  sentAt: v.optional(v.string()),
  deliveredAt: v.optional(v.string()),
  readAt: v.optional(v.string()),
  failedAt: v.optional(v.string()),
  metaErrorCode: v.optional(v.pipe(v.number(), v.integer())),
  metaErrorTitle: v.optional(v.string()),
});
const _deliveryFactsMatch: v.InferOutput<typeof deliveryFactsSchema> extends DeliveryFacts ? true : never = true;
void _deliveryFactsMatch;

export function decodeDeliveryFacts(item: Item): DeliveryFacts {
  const result = v.safeParse(deliveryFactsSchema, item);
  if (!result.success) throw new MalformedMessagingItemError(`Stored ledger entry ${String(item.pk)} ${String(item.sk)} has malformed delivery facts`);
  const facts: DeliveryFacts = {};
  for (const [name, value] of Object.entries(result.output)) if (value !== undefined) (facts as Record<string, unknown>)[name] = value;
  return facts;
}

const FACT_ATTRIBUTE: Record<DeliveryStage, keyof DeliveryFacts> = { sent: 'sentAt', delivered: 'deliveredAt', read: 'readAt', failed: 'failedAt' };

/**
 * The UpdateItem SET clauses that add one status event's facts to an item (a ledger entry, an
 * /upstream send): Meta's timestamp of its stage and, on failures, Meta's error, each only when
 * absent, so duplicated and reordered events change nothing further. Names `#f<n>`, values `:f<n>`.
 */
export function deliveryFactsUpdate(event: Pick<StatusEvent, 'stage' | 'timestamp' | 'error'>): { set: string[]; names: Record<string, string>; values: Record<string, unknown> } {
  const facts: Array<[keyof DeliveryFacts, unknown]> = [[FACT_ATTRIBUTE[event.stage], event.timestamp.toISOString()]];
  if (event.stage === 'failed' && event.error) facts.push(['metaErrorCode', event.error.code], ['metaErrorTitle', event.error.title]);
  const update = { set: [] as string[], names: {} as Record<string, string>, values: {} as Record<string, unknown> };
  facts.forEach(([attribute, value], index) => {
    update.set.push(`#f${index} = if_not_exists(#f${index}, :f${index})`);
    update.names[`#f${index}`] = attribute;
    update.values[`:f${index}`] = value;
  });
  return update;
}

/* ---------------------------------------------------------- recipients */

/**
 * A chunk's recipients in one compact attribute: one line per recipient, in index order from
 * `firstIndex`, `countryCode` TAB `toPhoneNumber` (about 14 bytes a recipient, ~14 KB for a chunk
 * of 1,000), stored raw-deflated as binary `recipientsDeflated` (~4 KB: a third of the write
 * units, and a tenth of the bytes the accept of 10,000 recipients hands to DynamoDB). Items written
 * before that hold the text itself in `recipients` and are read as they are. Values are digits on
 * every path but the earlier send-single / send-bulk, whose unvalidated numbers are refused as
 * recipients yet listed: there tabs and line breaks become spaces and a value is cut at
 * MAX_LISTED_VALUE characters, so no request can push the item past DynamoDB's 400 KB.
 */
export const MAX_LISTED_VALUE = 32;
const LINE_BREAKING = /[\t\r\n]/;
const listedValue = (value: string): string =>
  value.length <= MAX_LISTED_VALUE && !LINE_BREAKING.test(value) ? value : value.replace(/[\t\r\n]/g, ' ').slice(0, MAX_LISTED_VALUE);

export function recipientsItem(jobId: string, chunkIndex: number, recipients: readonly JobRecipient[], expiresAt: number): Item {
  const firstIndex = recipients[0]?.index ?? 0;
  let text = '';
  for (const [position, recipient] of recipients.entries()) {
    if (recipient.index !== firstIndex + position) throw new TypeError(`Recipients of chunk ${chunkIndex} must be consecutive from index ${firstIndex}`);
    text += `${position === 0 ? '' : '\n'}${listedValue(recipient.countryCode)}\t${listedValue(recipient.toPhoneNumber)}`;
  }
  return {
    ...messagingKeys.recipients(jobId, chunkIndex),
    firstIndex,
    // Level 1: digits compress nearly as well as at the default level, in a fraction of the time.
    recipientsDeflated: new Uint8Array(deflateRawSync(text, { level: 1 })),
    expiresAt,
  };
}

const storedRecipientsSchema = v.union([
  v.object({ firstIndex: v.pipe(v.number(), v.integer(), v.minValue(0)), recipientsDeflated: v.instance(Uint8Array) }),
  v.object({ firstIndex: v.pipe(v.number(), v.integer(), v.minValue(0)), recipients: v.string() }),
]);

export function decodeRecipients(item: Item): JobRecipient[] {
  const result = v.safeParse(storedRecipientsSchema, item);
  if (!result.success) throw new MalformedMessagingItemError(`Stored recipients ${String(item.pk)} ${String(item.sk)} do not match the recipients schema`);
  const stored = result.output;
  let recipients: string;
  if ('recipientsDeflated' in stored) {
    try {
      recipients = inflateRawSync(stored.recipientsDeflated).toString('utf8');
    } catch (error) {
      throw new MalformedMessagingItemError(`Stored recipients ${String(item.pk)} ${String(item.sk)} are not deflated text`, { cause: error });
    }
  } else recipients = stored.recipients;
  const { firstIndex } = stored;
  if (recipients === '') return [];
  return recipients.split('\n').map((line, position) => {
    const tab = line.indexOf('\t');
    return { index: firstIndex + position, countryCode: line.slice(0, tab), toPhoneNumber: line.slice(tab + 1) };
  });
}

/* --------------------------------------------------------------- tally */

const TALLY_ATTRIBUTE = /^r(\d{5})$/;

/** The tally codes an item holds, by recipient index (attributes `r<00000>`; anything else is ignored). */
export function decodeTally(item: Item): Array<[index: number, code: TallyCode]> {
  const bucket = /^TALLY#(\d+)$/.exec(String(item.sk));
  if (!bucket) throw new MalformedMessagingItemError(`Stored tally ${String(item.pk)} ${String(item.sk)} has no bucket`);
  const first = Number(bucket[1]) * TALLY_BUCKET_SIZE;
  const codes: Array<[number, TallyCode]> = [];
  for (const [name, value] of Object.entries(item)) {
    const attribute = TALLY_ATTRIBUTE.exec(name);
    if (!attribute || typeof value !== 'string') continue;
    const index = Number(attribute[1]);
    // A code outside its bucket would be counted twice by a sloppy writer: never trusted.
    if (index < first || index >= first + TALLY_BUCKET_SIZE) throw new MalformedMessagingItemError(`Stored tally ${String(item.sk)} holds recipient ${index} of another bucket`);
    codes.push([index, value]);
  }
  return codes;
}
