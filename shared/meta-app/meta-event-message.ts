/**
 * One metaEvents queue message: a webhook POST exactly as received (the body text, unparsed, so the
 * processor sees what Meta signed) and when it arrived. Versioned so the shape can evolve while
 * messages of the old shape still wait in the queue or its dead-letter queue.
 */
export interface MetaEventMessage {
  version: 1;
  /** ISO 8601, when the endpoint accepted the POST. */
  receivedAt: string;
  /** The raw request body (UTF-8 text). */
  body: string;
}

export const encodeMetaEventMessage = (receivedAt: Date, body: string): string =>
  JSON.stringify({ version: 1, receivedAt: receivedAt.toISOString(), body } satisfies MetaEventMessage);

/** The message, or undefined when the text is not a version-1 message. */
export function decodeMetaEventMessage(text: string): MetaEventMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as Record<string, unknown>;
  if (message.version !== 1 || typeof message.receivedAt !== 'string' || typeof message.body !== 'string') return undefined;
  return { version: 1, receivedAt: message.receivedAt, body: message.body };
}
