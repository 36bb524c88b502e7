/**
 * Turns a validated recipients file into the send-template-broadcast requests of one run: parts of
 * up to 10,000 recipients (the contract's most per request), each with an Idempotency-Key derived
 * from the file's bytes and the send's options, so running the same command again after a crash
 * replays the service's first answers instead of sending anything twice.
 */
import { createHash } from 'node:crypto';
import type { BroadcastRequest } from '../../client/broadcast-client';
import type { BroadcastFields, RowFields } from './request-fields';

export const maxRecipientsPerRequest = 10_000;

export interface SendOptions {
  fromPhoneNumber: string;
  templateName: string;
  templateLanguage: string;
  templateType: BroadcastRequest['templateType'];
  /** ISO 8601 with an offset; the service fans the jobs out then. */
  scheduledAt?: string;
  broadcastName: string;
  /** The values common to every recipient (header, buttons, named parameters, carousel, offer), from the options. */
  broadcastFields?: BroadcastFields;
}

/** One recipient of the file, with its own values: positional `templateParams` as a list, named as an object. */
export interface PlanRecipient extends Omit<RowFields, 'templateParams'> {
  /** Line of the file where the row ends. */
  line: number;
  countryCode: string;
  toPhoneNumber: string;
  /** A row addressed by business-scoped user id (its number fields ''): the request carries only `userId`. */
  userId?: string;
  templateParams: string[] | Record<string, string>;
}

/** A recipient of the request. */
export type PlannedRecipient = Omit<PlanRecipient, 'line' | 'templateParams' | 'countryCode' | 'toPhoneNumber'> & {
  countryCode?: string;
  toPhoneNumber?: string;
  templateParams?: string[] | Record<string, string>;
};

/** The request with the issue-24 fields (request-fields.ts), which the generated client types may not have yet. */
export type BroadcastRequestBody = Omit<BroadcastRequest, 'data' | 'globalTemplateParams' | keyof BroadcastFields> &
  BroadcastFields & { data: PlannedRecipient[] };

/**
 * The body as the client's request type. The client sends the JSON it is given; only its generated
 * types (client/api-types.ts) lag behind until the service's document has the issue-24 fields and
 * `npm run client:generate` runs.
 */
export const asClientRequest = (body: BroadcastRequestBody): BroadcastRequest => body as BroadcastRequest;

export interface PlannedRequest {
  /** 1-based. */
  part: number;
  parts: number;
  idempotencyKey: string;
  /** Lines of the file this part covers (first and last recipient). */
  lines: { first: number; last: number };
  body: BroadcastRequestBody;
}

/** The broadcastName of one part: the name itself when the file fits one request. */
export const partName = (broadcastName: string, part: number, parts: number): string =>
  parts === 1 ? broadcastName : `${broadcastName} (part ${part} of ${parts})`;

export function splitIntoParts<T>(items: readonly T[], size = maxRecipientsPerRequest): T[][] {
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size));
  return parts;
}

/**
 * The key of one part: a SHA-256 over the file's content and every option that changes what is
 * sent (sender, template, language, schedule, and the values common to every row when there are
 * some: a plain send keeps the key it always had), then the part's position. The broadcast name is
 * left out on purpose: the same file sent again under another name is refused by the service
 * (422 IDEMPOTENCY_KEY_REUSED) rather than sent a second time.
 */
export function idempotencyKeyFor(
  fileContent: string | Buffer,
  options: Omit<SendOptions, 'broadcastName' | 'templateType'>,
  part: number,
  parts: number,
): string {
  const fileHash = createHash('sha256').update(fileContent).digest('hex');
  const digest = createHash('sha256')
    .update(
      JSON.stringify({
        v: 1,
        fileHash,
        from: options.fromPhoneNumber,
        template: options.templateName,
        language: options.templateLanguage,
        scheduledAt: options.scheduledAt ?? null,
        ...(options.broadcastFields && Object.keys(options.broadcastFields).length > 0 ? { common: options.broadcastFields } : {}),
      }),
    )
    .digest('hex');
  return `csv-${digest.slice(0, 40)}-part-${part}-of-${parts}`;
}

/**
 * The key of a part sent again on purpose (`--resend`), after the service named `earlierJobId` as
 * this part's earlier send, past the key's window. Derived from that job, so running the same resend
 * again (after a crash, a lost answer) replays its first answers instead of sending a third time;
 * once this resend is past the window too, the service names it and the next `--resend` moves on.
 */
export function resendKeyFor(idempotencyKey: string, earlierJobId: string): string {
  const part = /-part-\d+-of-\d+$/.exec(idempotencyKey)?.[0] ?? '';
  const digest = createHash('sha256')
    .update(JSON.stringify({ v: 1, key: idempotencyKey, resendOf: earlierJobId }))
    .digest('hex');
  return `csv-${digest.slice(0, 40)}${part}`;
}

const hasValues = (templateParams: PlanRecipient['templateParams']): boolean =>
  Array.isArray(templateParams) ? templateParams.length > 0 : Object.keys(templateParams).length > 0;

const plannedRecipient = (recipient: PlanRecipient): PlannedRecipient => ({
  ...(recipient.userId === undefined ? { countryCode: recipient.countryCode, toPhoneNumber: recipient.toPhoneNumber } : { userId: recipient.userId }),
  ...(hasValues(recipient.templateParams) ? { templateParams: recipient.templateParams } : {}),
  ...(recipient.header ? { header: recipient.header } : {}),
  ...(recipient.buttons ? { buttons: recipient.buttons } : {}),
});

export function planRequests(
  fileContent: string | Buffer,
  recipients: readonly PlanRecipient[],
  options: SendOptions,
  size = maxRecipientsPerRequest,
): PlannedRequest[] {
  const parts = splitIntoParts(recipients, size);
  return parts.map((recipientsOfPart, index) => ({
    part: index + 1,
    parts: parts.length,
    idempotencyKey: idempotencyKeyFor(fileContent, options, index + 1, parts.length),
    lines: { first: recipientsOfPart[0]!.line, last: recipientsOfPart.at(-1)!.line },
    body: {
      broadcastName: partName(options.broadcastName, index + 1, parts.length),
      fromPhoneNumber: options.fromPhoneNumber,
      templateName: options.templateName,
      templateLanguage: options.templateLanguage,
      templateType: options.templateType,
      ...(options.scheduledAt === undefined ? {} : { scheduledAt: options.scheduledAt }),
      ...options.broadcastFields,
      data: recipientsOfPart.map(plannedRecipient),
    },
  }));
}
