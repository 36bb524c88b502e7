/**
 * The recipients list of a job (GET /broadcasts/{jobId}/recipients): one row per recipient of the
 * accepting request, in request order, with its public status (shared/delivery/recipient-status.ts)
 * derived from the worker's ledger outcome and Meta's delivery facts. Same access rules as the
 * status endpoint (`readableJob`). docs/DELIVERY-STATUS.md "Recipients list".
 *
 * Reads per chunk: the chunk's RECIPIENTS item and one consistent query of its ledger partition.
 * A page walks the chunks from the cursor's index until `limit` rows matched; the cursor is the
 * next recipient index, bound to the job and the status filter it was issued for.
 */
import { csvField } from '../csv/csv-field';
import { isAwaitingFiring } from './broadcast-job';
import { effectivePricing, type MessagePricing } from '../delivery/message-pricing';
import { recipientStatusOf, type DeliveryFacts, type RecipientStatus } from '../delivery/recipient-status';
import { InvalidListCursorError } from './errors';
import { DEFAULT_FAILURE_REASON, describeReason } from '../sending/failure-reasons';
import { readableJob, type StatusReading } from './get-job-status';
import type { ScopedCaller } from './key-scope';
import type { SentVia } from './marketing-messages-route';
import type { ChunkRecipientRecords, JobStore, LedgerEntry, RecipientLedger } from './ports';
import { isBusinessScopedUserId } from '../recipients/business-scoped-user-id';
import { recipientCostOf } from '../pricing/campaign-cost';
import type { RateCardSource } from '../pricing/rate-card';
import type { OutcomeFacts } from '../outcomes/outcome-facts';

export interface RecipientRow {
  /** Both '' for a recipient addressed by `userId`. */
  countryCode: string;
  toPhoneNumber: string;
  /** The business-scoped user id the message was sent to; absent for a recipient addressed by number. */
  userId?: string;
  status: RecipientStatus;
  messageId: string | null;
  failureReasonCode: string | null;
  failureReason: string | null;
  updatedAt: string | null;
  /** The API that carried the message, on every recipient Meta accepted a message for (it has a `messageId`); absent otherwise. */
  sentVia?: SentVia;
  /** Meta's pricing from the status webhooks, the highest stage's (read > delivered > sent); absent until one carried it. */
  pricing?: MessagePricing;
  /** A billed recipient's price at the operator's rate card (docs/BROADCAST.md "Cost per campaign"); absent otherwise. */
  cost?: { currency: string; amount: string };
  /** The first reply attributed to the message (docs/OUTCOMES.md); absent: none. */
  repliedAt?: string;
  /** The payload of the first quick-reply button the recipient tapped; absent: none. */
  buttonPayload?: string;
  /** The first counted click on the recipient's tracked link; absent: none. */
  firstClickAt?: string;
  /** Counted clicks on the tracked link; absent: none. */
  clicks?: number;
  /** A WAITING recipient's time to go (their send window's opening, or when the frequency cap allows; docs/CAMPAIGNS.md "Send windows"); absent otherwise. */
  waitingUntil?: string;
}

export const RECIPIENTS_PAGE_DEFAULT = 500;
export const RECIPIENTS_PAGE_MAX = 1000;

export interface RecipientsQuery {
  status?: RecipientStatus;
  /** Rows per page; undefined: every matching row (the CSV export). */
  limit?: number;
  cursor?: string;
  /**
   * A page reads at most this many chunks (a campaign's job may have thousands): stopped there, its
   * cursor is the next chunk's first index, so a page may hold fewer than `limit` rows (or none) and
   * still a cursor. Undefined: no bound (a job has at most 10 chunks).
   */
  maxChunks?: number;
}

export interface RecipientsPage {
  recipients: RecipientRow[];
  nextCursor: string | null;
}

/* ------------------------------------------------------------------ cursor */

interface Cursor {
  /** Next recipient index. */
  i: number;
  /** The status filter the cursor was issued for ('' for none). */
  s: string;
  j: string;
}

const encodeCursor = (cursor: Cursor): string => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decodeCursor(text: string, jobId: string, status: string): number {
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidListCursorError('same job and status filter');
  }
  const { i, s, j } = (cursor ?? {}) as Partial<Cursor>;
  if (!Number.isInteger(i) || (i as number) < 0 || s !== status || j !== jobId) throw new InvalidListCursorError('same job and status filter');
  return i as number;
}

/* -------------------------------------------------------------------- rows */

const latest = (...times: Array<string | undefined>): string | null =>
  times.filter((time): time is string => time !== undefined).reduce<string | null>((max, time) => (max === null || time > max ? time : max), null);

export function recipientRow(
  listed: { countryCode: string; toPhoneNumber: string; userId?: string },
  ledger: { entry: LedgerEntry; facts: DeliveryFacts } | undefined,
  reading: StatusReading,
  outcomes?: OutcomeFacts,
): RecipientRow {
  const entry = ledger?.entry;
  const facts = ledger?.facts ?? {};
  const outcome = entry && entry.status !== 'SENDING' ? { status: entry.status, updatedAt: entry.updatedAt, held: entry.held === true } : undefined;
  const status = recipientStatusOf(outcome, facts, reading.now, reading.unconfirmedAfterMs);
  let failureReasonCode: string | null = null;
  let failureReason: string | null = null;
  if (status === 'FAILED') {
    if (entry?.status === 'FAILED') {
      failureReasonCode = entry.failureReasonCode ?? DEFAULT_FAILURE_REASON;
      // In words from the one table (shared/sending/failure-reasons.ts); Meta's title first for webhook failures.
      failureReason = describeReason(failureReasonCode).text;
    } else {
      failureReasonCode = facts.metaErrorCode === undefined ? 'UNKNOWN' : String(facts.metaErrorCode);
      failureReason = facts.metaErrorTitle ?? describeReason(failureReasonCode).text;
    }
  }
  return {
    countryCode: listed.countryCode,
    toPhoneNumber: listed.toPhoneNumber,
    ...(listed.userId === undefined ? {} : { userId: listed.userId }),
    status,
    messageId: entry?.messageId ?? null,
    failureReasonCode,
    failureReason,
    updatedAt: latest(entry?.updatedAt, facts.sentAt, facts.deliveredAt, facts.readAt, facts.failedAt),
    // Meta's send answer does not say it: the worker records the endpoint it used (docs/BROADCAST.md "Marketing Messages API").
    ...(entry?.messageId === undefined ? {} : { sentVia: entry.sentVia ?? 'cloud_api' }),
    ...pricingOfRow(facts),
    ...outcomeFieldsOfRow(outcomes),
  };
}

/**
 * A chunk's rows by recipient index. Jobs recorded before recipients were kept list their ledger entries only.
 * `neverSent`: a scheduled job cancelled before it fired; a recipient with no ledger entry was never
 * queued and never will be, so it reads CANCELLED (as the summary counts it), not PENDING.
 */
function rowsOfChunk(records: ChunkRecipientRecords, reading: StatusReading, neverSent: boolean): Array<{ index: number; row: RecipientRow }> {
  const ledgerByIndex = new Map(records.ledger.map((record) => [record.entry.index, record]));
  if (records.listed) {
    return records.listed.map((recipient) => {
      const ledger = ledgerByIndex.get(recipient.index);
      const row = recipientRow(recipient, ledger, reading, records.outcomes?.get(recipient.index));
      if (neverSent && ledger === undefined) return { index: recipient.index, row: { ...row, status: 'CANCELLED' as const } };
      return { index: recipient.index, row: ledger === undefined ? withWaiting(row, records.waiting?.get(recipient.index)) : row };
    });
  }
  return records.ledger.map((record) => ({
    index: record.entry.index,
    row: recipientRow(listedOfLedger(record.entry.to), record, reading, records.outcomes?.get(record.entry.index)),
  }));
}

/**
 * A row not claimed yet, WAITING with its time when a waiting code says it waits (0A window, 0B cap).
 *
 * @example withWaiting(pendingRow, '0A:1764583200'); // { ...pendingRow, status: 'WAITING', waitingUntil: '2025-12-01T10:00:00.000Z' }
 */
export function withWaiting(row: RecipientRow, code: string | undefined): RecipientRow {
  if (row.status !== 'PENDING' || code === undefined || !/^0[AB]:\d+$/.test(code)) return row;
  return { ...row, status: 'WAITING', waitingUntil: new Date(Number(code.slice(3)) * 1000).toISOString() };
}

/** What a ledger entry names when the job kept no list: its key (recipient.ts), a number or a business-scoped user id. */
const listedOfLedger = (to: string): { countryCode: string; toPhoneNumber: string; userId?: string } =>
  isBusinessScopedUserId(to) ? { countryCode: '', toPhoneNumber: '', userId: to } : { countryCode: '', toPhoneNumber: to };

/* ---------------------------------------------------------------- use case */

function pricingOfRow(facts: DeliveryFacts): { pricing?: MessagePricing } {
  const found = effectivePricing(facts);
  return found ? { pricing: { ...found.pricing } } : {};
}

/** A row's outcome fields (docs/OUTCOMES.md "Where it shows"): each only when the recipient has it, so other rows stay as they were. */
function outcomeFieldsOfRow(outcomes: OutcomeFacts | undefined): Pick<RecipientRow, 'repliedAt' | 'buttonPayload' | 'firstClickAt' | 'clicks'> {
  if (!outcomes) return {};
  const firstTap = outcomes.buttonTaps?.[0];
  return {
    ...(outcomes.repliedAt !== undefined && { repliedAt: outcomes.repliedAt }),
    ...(firstTap !== undefined && { buttonPayload: firstTap.payload }),
    ...(outcomes.firstClickAt !== undefined && { firstClickAt: outcomes.firstClickAt }),
    ...(outcomes.clicks !== undefined && outcomes.clicks > 0 && { clicks: outcomes.clicks }),
  };
}

/** Chunks read at once by a listing of every row (the CSV export): 10 chunks of a 10,000-recipient job in 3 rounds. */
const EXPORT_CONCURRENCY = 4;

export async function listRecipients(
  broadcasts: JobStore & RecipientLedger,
  caller: ScopedCaller,
  jobId: string,
  query: RecipientsQuery,
  reading: StatusReading,
  rateCards?: RateCardSource,
): Promise<RecipientsPage> {
  const job = await readableJob(broadcasts, caller, jobId);
  const card = await rateCards?.rateCardOf(job.organizationId);
  const neverSent = job.cancelledAt !== undefined && isAwaitingFiring(job);
  const filter = query.status ?? '';
  const from = query.cursor === undefined ? 0 : decodeCursor(query.cursor, jobId, filter);
  const limit = query.limit ?? Number.POSITIVE_INFINITY;
  const matches = (row: RecipientRow) => query.status === undefined || row.status === query.status;
  const rows: RecipientRow[] = [];

  const firstChunk = Math.floor(from / job.chunkSize);
  const chunkIndexes = Array.from({ length: Math.max(0, job.totalChunks - firstChunk) }, (_, offset) => firstChunk + offset);
  // A page reads one chunk at a time and stops when full; the export reads every chunk, a few at once.
  const concurrency = query.limit === undefined ? EXPORT_CONCURRENCY : 1;
  for (let start = 0; start < chunkIndexes.length; start += concurrency) {
    if (query.maxChunks !== undefined && start >= query.maxChunks)
      return { recipients: rows, nextCursor: encodeCursor({ i: chunkIndexes[start]! * job.chunkSize, s: filter, j: jobId }) };
    const batch = await Promise.all(chunkIndexes.slice(start, start + concurrency).map((chunkIndex) => broadcasts.readChunkRecipients(jobId, chunkIndex)));
    for (const records of batch) {
      for (const { index, row } of rowsOfChunk(records, reading, neverSent)) {
        if (index < from || !matches(row)) continue;
        if (rows.length === limit) return { recipients: rows, nextCursor: encodeCursor({ i: index, s: filter, j: jobId }) };
        const cost = card && recipientCostOf(card, row);
        rows.push(cost ? { ...row, cost } : row);
      }
    }
  }
  return { recipients: rows, nextCursor: null };
}

/* --------------------------------------------------------------------- CSV */

/** New columns go last (`sentVia`, `userId`, then pricing, then the rate card's cost, then Meta's pricing subtype, then the outcomes): files read by column position before they existed keep their columns. */
export const RECIPIENT_CSV_COLUMNS = [
  'countryCode',
  'toPhoneNumber',
  'status',
  'messageId',
  'failureReasonCode',
  'failureReason',
  'updatedAt',
  'sentVia',
  'userId',
  'pricingCategory',
  'pricingType',
  'billable',
  'pricingModel',
  'cost',
  'costCurrency',
  'pricingSubtype',
  'repliedAt',
  'buttonPayload',
  'firstClickAt',
  'clicks',
  'waitingUntil',
] as const;
type CsvColumn = (typeof RECIPIENT_CSV_COLUMNS)[number];

const csvValueOf = (row: RecipientRow, column: CsvColumn): string | null | undefined => {
  switch (column) {
    case 'pricingCategory':
      return row.pricing?.category;
    case 'pricingType':
      return row.pricing?.type;
    case 'billable':
      return row.pricing === undefined ? undefined : String(row.pricing.billable);
    case 'pricingModel':
      return row.pricing?.pricingModel;
    case 'cost':
      return row.cost?.amount;
    case 'costCurrency':
      return row.cost?.currency;
    case 'pricingSubtype':
      return row.pricing?.subtype;
    case 'clicks':
      return row.clicks === undefined ? undefined : String(row.clicks);
    default:
      return row[column];
  }
};

export function recipientsCsv(rows: readonly RecipientRow[]): string {
  const lines = [RECIPIENT_CSV_COLUMNS.join(',')];
  for (const row of rows) lines.push(RECIPIENT_CSV_COLUMNS.map((column) => csvField(csvValueOf(row, column))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
