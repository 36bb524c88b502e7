/**
 * What each recipient of a template broadcast was sent with (body values, own header, buttons,
 * carousel, offer), kept beside its chunk's recipients so a follow-up can send everyone again with
 * their own values (docs/BROADCAST.md "Follow-ups"). One attribute of the chunk's RECIPIENTS item,
 * `sendsDeflated`: a JSON array by position, `[parameters]` or `[parameters, content]` (null for a
 * recipient listed without one: a campaign member skipped at expansion), raw-deflated
 * (values a whole broadcast shares compress to almost nothing). Left out when it would not fit the
 * item comfortably (MAX_SENDS_BYTES): that job's follow-ups then need the values in their body.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import * as v from 'valibot';
import type { JobRecipient } from '../../broadcast/broadcast-stores';
import { templateContentSchema } from '../../broadcast/template-broadcast.schema';
import { templateParametersSchema } from '../../templates/template-content.schema';
import { MalformedMessagingItemError } from './messaging-table';

/** DynamoDB's item limit is 400 KB; the recipients text of a chunk is a few KB deflated. */
export const MAX_SENDS_BYTES = 300_000;

// null: a recipient listed without a send (a campaign member skipped at expansion), so the chunk's others keep theirs (tracked links read them).
const storedSendsSchema = v.array(
  v.union([v.null(), v.strictTuple([templateParametersSchema]), v.strictTuple([templateParametersSchema, templateContentSchema])]),
);

/**
 * The `sendsDeflated` attribute of a chunk's recipients, or nothing when no recipient carries its
 * send (free-form and earlier jobs) or the chunk's values are too large to keep.
 *
 * @example
 * sendsAttributeOf([{ index: 0, countryCode: '44', toPhoneNumber: '7700900001', send: { parameters: ['Ada'] } }]); // { sendsDeflated: Uint8Array }
 */
export function sendsAttributeOf(recipients: readonly JobRecipient[]): { sendsDeflated?: Uint8Array } {
  if (recipients.length === 0 || recipients.every((recipient) => recipient.send === undefined)) return {};
  const sends = recipients.map(({ send }) => (send === undefined ? null : send.content === undefined ? [send.parameters] : [send.parameters, send.content]));
  const deflated = deflateRawSync(JSON.stringify(sends), { level: 1 });
  return deflated.byteLength > MAX_SENDS_BYTES ? {} : { sendsDeflated: new Uint8Array(deflated) };
}

/** The recipients with their sends, when the item kept them; as they are otherwise. */
export function withSends(item: Record<string, unknown>, recipients: JobRecipient[]): JobRecipient[] {
  const stored = item.sendsDeflated;
  if (!(stored instanceof Uint8Array)) return recipients;
  let parsed: v.SafeParseResult<typeof storedSendsSchema>;
  try {
    parsed = v.safeParse(storedSendsSchema, JSON.parse(inflateRawSync(stored).toString('utf8')));
  } catch (error) {
    throw new MalformedMessagingItemError(`Stored sends ${String(item.pk)} ${String(item.sk)} are not deflated JSON`, { cause: error });
  }
  if (!parsed.success || parsed.output.length !== recipients.length) {
    throw new MalformedMessagingItemError(`Stored sends ${String(item.pk)} ${String(item.sk)} do not match the chunk's recipients`);
  }
  const sends = parsed.output;
  return recipients.map((recipient, position) => {
    const send = sends[position]!;
    if (send === null) return recipient;
    const [parameters, content] = send;
    return { ...recipient, send: content === undefined ? { parameters } : { parameters, content } };
  });
}

/**
 * A follow-up's 131049 re-send counts (docs/BROADCAST.md "Follow-ups"): `perUserLimitResends`, a
 * map from the recipient's index (as a string) to its count, only for recipients that have one;
 * nothing when none has (every other job: no bytes added).
 *
 * @example
 * resendsAttributeOf([{ index: 3, countryCode: '44', toPhoneNumber: '7700900001', perUserLimitResends: 2 }]); // { perUserLimitResends: { '3': 2 } }
 */
export function resendsAttributeOf(recipients: readonly JobRecipient[]): { perUserLimitResends?: Record<string, number> } {
  const counted = recipients.filter((recipient) => (recipient.perUserLimitResends ?? 0) > 0);
  return counted.length === 0
    ? {}
    : { perUserLimitResends: Object.fromEntries(counted.map(({ index, perUserLimitResends }) => [String(index), perUserLimitResends!])) };
}

const storedResendsSchema = v.record(v.pipe(v.string(), v.regex(/^\d+$/)), v.pipe(v.number(), v.integer(), v.minValue(1)));

/** The recipients with their re-send counts, when the item has them; as they are otherwise. */
export function withResends(item: Record<string, unknown>, recipients: JobRecipient[]): JobRecipient[] {
  if (item.perUserLimitResends === undefined) return recipients;
  const parsed = v.safeParse(storedResendsSchema, item.perUserLimitResends);
  if (!parsed.success) throw new MalformedMessagingItemError(`Stored re-send counts ${String(item.pk)} ${String(item.sk)} do not match their schema`);
  const counts = parsed.output;
  return recipients.map((recipient) =>
    counts[String(recipient.index)] === undefined ? recipient : { ...recipient, perUserLimitResends: counts[String(recipient.index)] },
  );
}
