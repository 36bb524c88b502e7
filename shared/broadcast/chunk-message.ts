/**
 * What travels on the outbound queue. A chunk of up to 1,000 recipients is one SQS message,
 * unless its parameters make it larger than one message should be; then it is split into
 * parts, each processed on its own (the ledger, not the message, tracks who was sent).
 */

/** [recipient index in the request, full international number, template parameters]. */
export type ChunkRecipient = [index: number, to: string, parameters: string[]];

export interface TemplateChunkMessage {
  kind: 'template-chunk';
  version: 1;
  jobId: string;
  organizationId: string;
  chunkIndex: number;
  wabaId: string;
  phoneNumberId: string;
  template: { name: string; language: string };
  recipients: ChunkRecipient[];
}

/** One free-form message (a "chunk" of one recipient) with its Meta body prepared at accept time. */
export interface FreeformChunkMessage {
  kind: 'freeform';
  version: 1;
  jobId: string;
  organizationId: string;
  chunkIndex: number;
  wabaId: string;
  phoneNumberId: string;
  recipients: ChunkRecipient[];
  /** Meta's message body; `to` is set per recipient when sending. */
  body: Record<string, unknown>;
}

export type OutboundMessage = TemplateChunkMessage | FreeformChunkMessage;

/** SQS bills per 64 KiB and old queues cap at 256 KiB: stay under both with margin. */
export const MAX_MESSAGE_BYTES = 200 * 1024;

export function encodeOutboundMessage(message: OutboundMessage): string {
  return JSON.stringify(message);
}

export class MalformedOutboundMessageError extends Error {
  override readonly name = 'MalformedOutboundMessageError';
}

export function decodeOutboundMessage(body: string): OutboundMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw new MalformedOutboundMessageError('Outbound message is not JSON', { cause: error });
  }
  const message = parsed as Partial<OutboundMessage>;
  const knownKind = message?.kind === 'template-chunk' || (message?.kind === 'freeform' && typeof message.body === 'object');
  if (!knownKind || message.version !== 1 || !Array.isArray(message.recipients) || !message.jobId) {
    throw new MalformedOutboundMessageError('Outbound message has an unknown shape');
  }
  return message as OutboundMessage;
}

/** Splits a chunk's recipients into messages of at most `maxBytes`, keeping their order. */
export function chunkMessages(
  base: Omit<TemplateChunkMessage, 'recipients'>,
  recipients: readonly ChunkRecipient[],
  maxBytes = MAX_MESSAGE_BYTES,
): TemplateChunkMessage[] {
  const envelopeBytes = Buffer.byteLength(encodeOutboundMessage({ ...base, recipients: [] }));
  const messages: TemplateChunkMessage[] = [];
  let current: ChunkRecipient[] = [];
  let currentBytes = envelopeBytes;
  for (const recipient of recipients) {
    const bytes = Buffer.byteLength(JSON.stringify(recipient)) + 1;
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
