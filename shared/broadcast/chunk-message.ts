/**
 * What travels on the outbound queue. A chunk of up to 1,000 recipients is one SQS message,
 * unless its parameters make it larger than one message should be; then it is split into
 * parts, each processed on its own (the ledger, not the message, tracks who was sent).
 * The worker decodes every body with the schemas below.
 *
 * A template chunk's `template` carries the content every recipient shares (a broadcast's header,
 * buttons, carousel, offer: template-content.schema.ts); a recipient with content of its own
 * carries it as a fourth tuple element, so plain recipients keep the three-element form.
 *
 * This file is the codec: the code handles recipients as named objects (`ChunkRecipient`), the
 * queue carries each as the compact tuple `[index, to, parameters]` (a 1,000-recipient chunk stays
 * well under one SQS message; messages queued, and held for scheduled jobs, before and after this
 * codec existed have the same bytes). Nothing outside this file sees the tuple.
 *
 * `to` is the recipient's key (shared/recipients/recipient.ts `recipientKeyOf`): a phone number's
 * E.164 digits, or a business-scoped user id, which always has a dot and capital letters where a
 * number has only digits. No marker: every message queued before BSUIDs holds digits and reads as
 * the number it is; the send body addresses a BSUID with Meta's `recipient` field (`addressOf`,
 * shared/sending/message-bodies.ts).
 */
import { maxPriceSchema } from './template-max-price';
import { chunkSendRulesSchema } from '../send-rules/send-rules.schema';
import * as v from 'valibot';
import { templateContentSchema as contentSchema, variableNamesSchema } from './template-broadcast.schema';
import type { TemplateContent, TemplateParameters } from '../templates/template-content.schema';

const indexSchema = v.pipe(v.number(), v.integer(), v.minValue(0));
const wireParametersSchema = v.union([v.array(v.string()), v.record(v.string(), v.string())]);
/** The wire form of a recipient: [recipient index in the request, full international number or business-scoped user id, template parameters, own content?]. */
// Strict: valibot's plain tuple would accept a four-element recipient and drop its content.
// A recipient's own time zone (a campaign member's `timeZone` attribute, for the send window) is a fifth element, content or null before it.
const wireRecipientSchema = v.union([
  v.strictTuple([indexSchema, v.string(), wireParametersSchema]),
  v.strictTuple([indexSchema, v.string(), wireParametersSchema, contentSchema]),
  v.strictTuple([indexSchema, v.string(), wireParametersSchema, v.nullable(contentSchema), v.pipe(v.string(), v.minLength(1))]),
]);
type WireRecipient =
  | [number, string, TemplateParameters]
  | [number, string, TemplateParameters, TemplateContent]
  | [number, string, TemplateParameters, TemplateContent | null, string];

const chunkRecipientSchema = v.pipe(
  wireRecipientSchema,
  v.transform(
    ([index, to, parameters, content, timeZone]): ChunkRecipient => ({
      index,
      to,
      parameters,
      ...(content === undefined || content === null ? {} : { content }),
      ...(timeZone === undefined ? {} : { timeZone }),
    }),
  ),
);
const envelope = {
  version: v.literal(1),
  jobId: v.pipe(v.string(), v.minLength(1)),
  organizationId: v.string(),
  chunkIndex: v.pipe(v.number(), v.integer(), v.minValue(0)),
  wabaId: v.string(),
  phoneNumberId: v.string(),
  recipients: v.array(chunkRecipientSchema),
  /** The job's send rules deciding each send (send window, deferral over a frequency cap); absent: none (every message before them). */
  sendRules: v.optional(chunkSendRulesSchema),
  /** The lane it travels (outbound-lanes.ts): `single` for a job of one recipient; absent: `bulk` (every message before lanes). */
  lane: v.optional(v.literal('single')),
};
/** `template.api`: `marketing_messages` sends through the Marketing Messages API; absent (every message queued before it) through `/messages`. */
const templateChunkSchema = v.object({
  ...envelope,
  kind: v.literal('template-chunk'),
  template: v.object({
    name: v.string(),
    language: v.string(),
    content: v.optional(contentSchema),
    variableNames: v.optional(variableNamesSchema),
    api: v.optional(v.literal('marketing_messages')),
    /** The template has a max price: no fallback to `/messages` (Meta would answer 131061). */
    maxPrice: v.optional(maxPriceSchema),
  }),
});
/** One free-form message (a "chunk" of one recipient) with its Meta body prepared at accept time; `to` is set per recipient. */
const freeformChunkSchema = v.object({ ...envelope, kind: v.literal('freeform'), body: v.record(v.string(), v.unknown()) });
const outboundMessageSchema = v.variant('kind', [templateChunkSchema, freeformChunkSchema]);

/** One recipient of a chunk. */
export interface ChunkRecipient {
  /** Its index in the accepting request: the ledger's key, the order of the recipients list. */
  index: number;
  /** The recipient's key: the full international number, or a business-scoped user id (`US.1349…`: a dot and letters, never digits only). */
  to: string;
  /** The template's body values: in placeholder order, or by name for a named template (none for a free-form message). */
  parameters: TemplateParameters;
  /** The recipient's own header, buttons, carousel or offer: each wins over the broadcast's. */
  content?: TemplateContent;
  /** The recipient's own time zone (a campaign member's `timeZone` attribute): their send window is read in it (shared/send-rules/recipient-time-zone.ts). */
  timeZone?: string;
}

function wireOf({ index, to, parameters, content, timeZone }: ChunkRecipient): WireRecipient {
  if (timeZone !== undefined) return [index, to, parameters, content ?? null, timeZone];
  return content === undefined ? [index, to, parameters] : [index, to, parameters, content];
}
export type TemplateChunkMessage = v.InferOutput<typeof templateChunkSchema>;
export type FreeformChunkMessage = v.InferOutput<typeof freeformChunkSchema>;
export type OutboundMessage = TemplateChunkMessage | FreeformChunkMessage;
export type OutboundContent = Omit<TemplateChunkMessage, 'recipients'> | Omit<FreeformChunkMessage, 'recipients'>;

/** SQS bills per 64 KiB and old queues cap at 256 KiB: stay under both with margin. */
export const MAX_MESSAGE_BYTES = 200 * 1024;

/**
 * SQS carries only #x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF. JSON.stringify
 * already escapes control characters and unpaired surrogates; U+FFFE and U+FFFF it leaves raw, and
 * they can only stand inside a JSON string, so their \u escape decodes to the same text. Requests
 * carrying them are refused at validation (sendable-text.ts); this keeps the queue from ever
 * refusing a body whatever its origin (a template name from Meta's catalog, a continuation).
 */
const UNSENDABLE_BY_SQS = /[\uFFFE\uFFFF]/g;

/**
 * The SQS body of a message: its recipients as wire tuples, characters SQS refuses escaped.
 *
 * @example
 * encodeOutboundMessage({ ...envelope, recipients: [{ index: 0, to: '919800000001', parameters: ['Ada'] }] });
 * // '{"version":1,...,"recipients":[[0,"919800000001",["Ada"]]],...}'
 */
export function encodeOutboundMessage(message: OutboundMessage): string {
  return JSON.stringify({ ...message, recipients: message.recipients.map(wireOf) }).replace(
    UNSENDABLE_BY_SQS,
    (character) => `\\u${character.charCodeAt(0).toString(16)}`,
  );
}

export class MalformedOutboundMessageError extends Error {
  override readonly name = 'MalformedOutboundMessageError';
}

/**
 * A message from its SQS body (or a held copy), recipients as named objects; MalformedOutboundMessageError otherwise.
 *
 * @example
 * decodeOutboundMessage(encodeOutboundMessage(message)); // equal to `message`
 */
export function decodeOutboundMessage(body: string): OutboundMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw new MalformedOutboundMessageError('Outbound message is not JSON', { cause: error });
  }
  const result = v.safeParse(outboundMessageSchema, parsed);
  if (!result.success) throw new MalformedOutboundMessageError('Outbound message has an unknown shape');
  return result.output;
}

/**
 * Splits a chunk's recipients into messages of at most `maxBytes` encoded, keeping their order.
 *
 * @example
 * chunkMessages(envelope, recipients).length; // 1 for 1,000 recipients with short parameters
 */
export function chunkMessages<Base extends OutboundContent>(
  base: Base,
  recipients: readonly ChunkRecipient[],
  maxBytes = MAX_MESSAGE_BYTES,
): Array<Base & { recipients: ChunkRecipient[] }> {
  const envelopeBytes = Buffer.byteLength(encodeOutboundMessage({ ...base, recipients: [] } as OutboundMessage));
  const messages: Array<Base & { recipients: ChunkRecipient[] }> = [];
  let current: ChunkRecipient[] = [];
  let currentBytes = envelopeBytes;
  for (const recipient of recipients) {
    const bytes = Buffer.byteLength(JSON.stringify(wireOf(recipient))) + 1;
    if (current.length > 0 && currentBytes + bytes > maxBytes) {
      messages.push({ ...base, recipients: current });
      current = [];
      currentBytes = envelopeBytes;
    }
    current.push(recipient);
    currentBytes += bytes;
  }
  if (current.length > 0) messages.push({ ...base, recipients: current });
  return messages;
}
