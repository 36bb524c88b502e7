/** Job, chunk and recipients items of the messaging table (keys: messaging-table.ts). */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import * as v from 'valibot';
import { broadcastJobSchema, type BroadcastJob, type ChunkProgress } from '../../broadcast/broadcast-job';
import type { JobRecipient } from '../../broadcast/broadcast-stores';
import { FAILURE_PREFIX, MalformedMessagingItemError, expiresAtFrom, messagingKeys } from './messaging-table';
import { resendsAttributeOf, sendsAttributeOf, withResends, withSends } from './messaging-recipient-sends';

type Item = Record<string, unknown>;

/* ---------------------------------------------------------------- jobs */

export function jobItem(job: BroadcastJob): Item {
  return {
    ...messagingKeys.job(job.jobId),
    ...job,
    // A string set, as refuseCountry adds to it (dynamodb-job-control-store.ts).
    ...(job.refusedCountries !== undefined && job.refusedCountries.length > 0 ? { refusedCountries: new Set(job.refusedCountries) } : {}),
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

export function decodeJob(item: Item): BroadcastJob {
  const refused = item.refusedCountries instanceof Set ? { refusedCountries: [...(item.refusedCountries as Set<string>)].sort() } : {};
  const result = v.safeParse(broadcastJobSchema, { ...upgradeStoredJob(item), ...refused });
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

/* ---------------------------------------------------------- recipients */

/**
 * A chunk's recipients in one compact attribute: one line per recipient, in index order from
 * `firstIndex`, `countryCode` TAB `toPhoneNumber` (TAB `userId` for a business-scoped user id; about 14 bytes a recipient, ~14 KB for a chunk
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
    // A business-scoped user id (validated: letters, digits, dots; up to 135 characters) as a third field, uncut.
    if (recipient.userId !== undefined) text += `\t${recipient.userId}`;
  }
  return {
    ...messagingKeys.recipients(jobId, chunkIndex),
    firstIndex,
    // Level 1: digits compress nearly as well as at the default level, in a fraction of the time.
    recipientsDeflated: new Uint8Array(deflateRawSync(text, { level: 1 })),
    // Each recipient's values, for follow-ups (messaging-recipient-sends.ts); template broadcasts only.
    ...sendsAttributeOf(recipients),
    // A follow-up's 131049 re-send counts (per-user-limit-resends.ts), only when some recipient has one.
    ...resendsAttributeOf(recipients),
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
  const listed = recipients.split('\n').map((line, position): JobRecipient => {
    const [countryCode = '', toPhoneNumber = '', userId] = line.split('\t');
    return { index: firstIndex + position, countryCode, toPhoneNumber, ...(userId === undefined ? {} : { userId }) };
  });
  return withResends(item, withSends(item, listed));
}
