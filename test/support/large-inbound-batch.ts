/**
 * A Meta `messages` webhook batch of many inbound text messages, each from its own user with a
 * BSUID (and a number unless `withPhone` is false), with the change's `contacts[]` naming them
 * all (../shared/meta/usernames-and-bsuid.md §4): the shape that Meta sends under load and that a
 * splitter copying the contacts into every part could not queue. Sized to `targetBytes` by the
 * messages' text. Used by the splitter's tests, the inbound integration test and bench/webhook-split.ts.
 */
export interface LargeInboundBatchOptions {
  messages: number;
  /** The JSON text's length to reach (within a few bytes per message), by padding each message's text. */
  targetBytes: number;
  wabaId?: string;
  phoneNumberId?: string;
  /** Digits. */
  displayPhoneNumber?: string;
  /** False: Meta withholds every number (only `user_id` / `from_user_id`). Default true. */
  withPhone?: boolean;
  /** Meta's time of every message (epoch seconds). Default 2026-01-01. */
  timestamp?: number;
  /** Distinguishes the users and message ids of one batch from another's. Default 'a'. */
  tag?: string;
  /**
   * Pads each profile name to this many characters: fewer senders whose `contacts[]` alone is
   * still over a queue message (ordinary names need ~2,300 senders for that). Default: unpadded.
   */
  profileNameLength?: number;
}

export interface InboundSender {
  phone?: string;
  userId: string;
}

/** The i-th user of a batch: a 13-digit Brazilian mobile and a BSUID of 20 characters after `BR.`. */
export const inboundSenderOf = (index: number, tag = 'a', withPhone = true): InboundSender => ({
  ...(withPhone ? { phone: `55119${String(index).padStart(8, '0')}` } : {}),
  userId: `BR.${tag}${String(index).padStart(8, '0')}${'k7Q2'.repeat(3)}`.slice(0, 23),
});

/**
 * The batch as an object (stringify it to sign and post it).
 *
 * @example
 * const raw = JSON.stringify(largeInboundBatch({ messages: 2_500, targetBytes: 3.5 * 1024 * 1024 }));
 */
export function largeInboundBatch(options: LargeInboundBatchOptions): {
  object: string;
  entry: Array<{ id: string; changes: Array<{ field: string; value: Record<string, unknown> }> }>;
} {
  const {
    messages: count,
    wabaId = '102290129340398',
    phoneNumberId = '106540352242922',
    displayPhoneNumber = '15550783881',
    withPhone = true,
    timestamp = 1_767_225_600,
    tag = 'a',
    profileNameLength,
  } = options;
  const nameOf = (i: number) => {
    const name = `Cliente ${tag}${i}`;
    return profileNameLength === undefined ? name : `${name} ${'da Silva '.repeat(Math.ceil(profileNameLength / 9))}`.slice(0, profileNameLength);
  };
  const build = (textLength: number) => {
    const senders = Array.from({ length: count }, (_, i) => inboundSenderOf(i, tag, withPhone));
    return {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: displayPhoneNumber, phone_number_id: phoneNumberId },
                contacts: senders.map((sender, i) => ({
                  profile: { name: nameOf(i), username: `cliente.${tag}${i}` },
                  ...(sender.phone ? { wa_id: sender.phone } : {}),
                  user_id: sender.userId,
                })),
                messages: senders.map((sender, i) => ({
                  ...(sender.phone ? { from: sender.phone } : {}),
                  from_user_id: sender.userId,
                  id: `wamid.HBgL${tag}${String(i).padStart(30, '0')}`,
                  timestamp: String(timestamp),
                  type: 'text',
                  text: { body: 'Olá, quero saber do meu pedido. '.repeat(Math.ceil(textLength / 32) + 1).slice(0, textLength) },
                })),
              },
            },
          ],
        },
      ],
    };
  };
  const base = Buffer.byteLength(JSON.stringify(build(0)));
  // 'á' is two bytes in UTF-8: measure one padded message to turn bytes into characters.
  const perChar = (Buffer.byteLength(JSON.stringify(build(320))) - base) / (320 * count);
  return build(Math.max(0, Math.floor((options.targetBytes - base) / count / perChar)));
}
