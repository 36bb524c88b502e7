/**
 * One metaEvents queue message: a webhook POST exactly as received (the body text, unparsed, so the
 * processor sees what Meta signed) and when it arrived. Versioned so the shape can evolve while
 * messages of the old shape still wait in the queue or its dead-letter queue. The endpoint writes
 * it (webhook-intake.ts); the delivery-events function reads it (functions/delivery-events).
 */
import * as v from 'valibot';
import { MalformedMetaEventMessageError } from './errors';

const metaEventMessageSchema = v.object({
  version: v.literal(1),
  receivedAt: v.pipe(v.string('receivedAt must be a string'), v.isoTimestamp('receivedAt must be an ISO timestamp')),
  body: v.string('body must be a string'),
});

export type MetaEventMessage = v.InferOutput<typeof metaEventMessageSchema>;

export const encodeMetaEventMessage = (receivedAt: Date, body: string): string =>
  JSON.stringify({ version: 1, receivedAt: receivedAt.toISOString(), body } satisfies MetaEventMessage);

/** The message, or undefined when the text is not a version-1 message. */
export function decodeMetaEventMessage(text: string): MetaEventMessage | undefined {
  try {
    return readMetaEventMessage(text);
  } catch {
    return undefined;
  }
}

/** Throws MalformedMetaEventMessageError when the text is not a message the endpoint wrote (it goes to the dead-letter queue). */
export function readMetaEventMessage(text: string): MetaEventMessage {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new MalformedMetaEventMessageError('The queued webhook message is not JSON');
  }
  const result = v.safeParse(metaEventMessageSchema, json);
  if (!result.success) throw new MalformedMetaEventMessageError(`The queued webhook message is not a version-1 message: ${v.summarize(result.issues)}`);
  return result.output;
}

/**
 * The SQS message attribute `replay-meta-events` sets on a message it moves back from the
 * dead-letter queue: the processor treats a replay like a redelivery (it may follow a crashed attempt).
 */
export const REPLAYED_ATTRIBUTE = 'replayed';
