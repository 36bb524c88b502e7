/**
 * The messaging table: every key and item shape in one place (docs/DATA-MODEL.md, "Messaging table").
 *
 *   pk JOB#<jobId>                 sk JOB            the job (+ gsi1: ORG#<org>#JOBS / createdAt)
 *   pk JOB#<jobId>                 sk CHUNK#<0000>   a chunk: recipientCount, live counters, doneAt
 *   pk LEDGER#<jobId>#<chunk>      sk P#<00000>      a ledger page: LEDGER_PAGE_SIZE recipients' entries, one
 *                                                    short attribute each (e<offset>, ledger-page-items.ts):
 *                                                    SENDING → SENT | FAILED | UNKNOWN (or CANCELLED, claimed
 *                                                    after the job's cancelledAt); claimed in groups
 *   pk LEDGER#<jobId>#<chunk>      sk R#<00000>      one recipient's entry in the shape written before the
 *                                                    pages (still read and honoured by claims), and Meta's
 *                                                    delivery facts of a paged entry (no status)
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
 *   pk SVCTIER#<phoneNumberId>     sk MONTH#<YYYY-MM>  delivered service messages of a number in a UTC month
 *                                                    (`delivered`, ADDed; Meta's free tier, shared/delivery/service-tier.ts)
 *   pk SVCMSG#<message id>         sk SVC#<phoneNumberId>  one counted service message: its `ordinal` and `month`,
 *                                                    so a repeated status counts once
 *   pk TOUCH#<org>#<person key>    sk TOUCH          a person's latest touch (a phone number's digits or a BSUID):
 *                                                    the job, recipient, time and window an inbound message
 *                                                    without context is attributed by (docs/OUTCOMES.md; expiresAt)
 *   pk CAP#<org>#<person key>      sk CAP            a person's sends counted by the organization's frequency cap
 *                                                    (`sends`: send id → epoch ms, `version`; expiresAt)
 *
 * Keys live here; items are written from the domain types and read back through valibot schemas
 * (messaging-job-items.ts: jobs, chunks, recipients; messaging-ledger-items.ts: ledger entries,
 * message id records; messaging-tally-items.ts: Meta's facts, tally codes): a stored item that does not match is an error
 * there, never a wrongly typed value further on.
 */
import { TALLY_BUCKET_SIZE } from '../../delivery/recipient-status';

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
  /** A ledger page: the recipients [page × LEDGER_PAGE_SIZE, …) of a chunk (ledger-page-items.ts). */
  ledgerPage: (jobId: string, chunkIndex: number, page: number) => ({ pk: `LEDGER#${jobId}#${chunkIndex}`, sk: `P#${String(page).padStart(5, '0')}` }),
  ledgerPagePrefix: 'P#',
  ledgerEntryPrefix: 'R#',
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
  held: (jobId: string, chunkIndex: number, part: number) => ({
    pk: `JOB#${jobId}`,
    sk: `HELD#${String(chunkIndex).padStart(4, '0')}#${String(part).padStart(3, '0')}`,
  }),
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
  /** A template's quality or category from Meta's events: its own partition, so the status reads above never see them. */
  templateAttribute: (wabaId: string, name: string, language: string, kind: string) => ({ pk: `TPLATTR#${wabaId}`, sk: `${name}#${language}#${kind}` }),
  templateAttributePartition: (wabaId: string) => `TPLATTR#${wabaId}`,
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
  /** A number's delivered service messages in a UTC month (`YYYY-MM`): Meta's free tier (shared/delivery/service-tier.ts). */
  serviceTier: (phoneNumberId: string, month: string) => ({ pk: `SVCTIER#${phoneNumberId}`, sk: `MONTH#${month}` }),
  /** One counted service message (by Meta's message id): its own partition, so the counter's is the only hot one. */
  serviceDelivery: (phoneNumberId: string, messageId: string) => ({ pk: `SVCMSG#${messageId}`, sk: `SVC#${phoneNumberId}` }),
  /** A person's latest touch in an organization, under one of their keys (a phone number's digits, or a BSUID): shared/outcomes/ports.ts TouchStore. */
  touch: (organizationId: string, personKey: string) => ({ pk: `TOUCH#${organizationId}#${personKey}`, sk: 'TOUCH' }),
  /** A person's sends counted by their organization's frequency cap, under their canonical key: shared/send-rules/ports.ts FrequencyCapStore. */
  frequencyCap: (organizationId: string, personKey: string) => ({ pk: `CAP#${organizationId}#${personKey}`, sk: 'CAP' }),
  /** The platform's tracked-link key, encrypted (shared/clicks/click-link-key.ts): one item, written once. */
  clickLinkKey: () => ({ pk: 'PLATFORM#CLICK_LINK', sk: 'KEY' }),
  /** Meta's `click_id` of a click the redirect counted (shared/clicks/meta-link-clicks.ts): its own partition, kept 8 days. */
  clickId: (clickId: string) => ({ pk: `CLICKID#${clickId}`, sk: 'CLICK' }),
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

/** The index key after which a listing of an organization's jobs continues (gsi1 + the table's key). */
export function organizationJobsStartKey(organizationId: string, after: { createdAt: string; jobId: string }): Item {
  return { ...messagingKeys.organizationJobs(organizationId, after.createdAt), ...messagingKeys.job(after.jobId) };
}
