/**
 * One free-form message, by type. The contract gives fields and rules for text, document, audio,
 * video, location and interactive; for image and sticker (and lengths it leaves open) Meta's own
 * limits apply. docs/FREEFORM-AND-EARLIER.md lists every field with its rule and which are optional.
 */
import * as v from 'valibot';
import { phoneDigitBounds } from '../recipients/phone-number';
import { phoneDigits } from '../recipients/phone-rule';
import { businessScopedUserIdSchema } from '../recipients/business-scoped-user-id';
import { sendableText } from '../templates/sendable-text';

const text = (maxLength: number) =>
  v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(maxLength, `must be at most ${maxLength} characters`), sendableText());
const optionalText = (maxLength: number) => v.optional(v.pipe(v.string(), v.maxLength(maxLength, `must be at most ${maxLength} characters`), sendableText()));

/** A public http(s) URL whose path ends in one of the extensions Meta accepts for the media type. */
export const mediaUrl = (extensions: readonly string[]) =>
  v.pipe(
    v.string(),
    sendableText(),
    v.check((value) => {
      try {
        const protocol = new URL(value).protocol;
        return protocol === 'http:' || protocol === 'https:';
      } catch {
        return false;
      }
    }, 'must be an http or https URL'),
    v.check(
      (value) => {
        try {
          const extension = new URL(value).pathname.toLowerCase().split('.').pop() ?? '';
          return extensions.includes(extension);
        } catch {
          return false;
        }
      },
      `must end in one of .${extensions.join(', .')}`,
    ),
  );

/** JSON numbers only: "12.5" (a string) is rejected, as the contract says. */
const coordinate = (limit: number) =>
  v.pipe(
    v.number('must be a JSON number, not a string'),
    v.minValue(-limit, `must be from -${limit} to ${limit}`),
    v.maxValue(limit, `must be from -${limit} to ${limit}`),
  );

const unique = <T>(values: readonly T[]) => new Set(values).size === values.length;

const headerSchema = v.optional(v.object({ type: v.literal('text', "must be 'text'"), text: text(60) }));
const bodySchema = v.object({ text: text(1024) });
const footerSchema = v.optional(v.object({ text: text(60) }));

const replyButton = v.object({
  type: v.literal('reply', "must be 'reply'"),
  reply: v.object({ id: text(256), title: text(20) }),
});

const buttonMessage = v.object({
  type: v.literal('button'),
  header: headerSchema,
  body: bodySchema,
  footer: footerSchema,
  action: v.object({
    buttons: v.pipe(
      v.array(replyButton),
      v.minLength(1, 'must hold 1 to 3 buttons'),
      v.maxLength(3, 'must hold 1 to 3 buttons'),
      v.check((buttons) => unique(buttons.map((button) => button.reply.title)), 'must have unique titles'),
      v.check((buttons) => unique(buttons.map((button) => button.reply.id)), 'must have unique ids'),
    ),
  }),
});

const listRow = v.object({ id: text(200), title: text(24), description: optionalText(72) });
const listSection = v.object({ title: optionalText(24), rows: v.pipe(v.array(listRow), v.minLength(1, 'must hold at least 1 row')) });

const listMessage = v.object({
  type: v.literal('list'),
  header: headerSchema,
  body: bodySchema,
  footer: footerSchema,
  action: v.pipe(
    v.object({
      button: text(20),
      sections: v.pipe(v.array(listSection), v.minLength(1, 'must hold at least 1 section'), v.maxLength(10, 'must hold at most 10 sections')),
    }),
    v.forward(
      v.check((action) => {
        const rows = action.sections.reduce((total, section) => total + section.rows.length, 0);
        return rows >= 1 && rows <= 10;
      }, 'must hold 1 to 10 rows counted over all sections'),
      ['sections'],
    ),
    v.forward(
      v.check((action) => unique(action.sections.flatMap((section) => section.rows.map((row) => row.id))), 'must have unique row ids'),
      ['sections'],
    ),
    v.forward(
      v.check((action) => action.sections.length === 1 || action.sections.every((section) => section.title), 'must each have a title when there are several'),
      ['sections'],
    ),
  ),
});

/** The recipient is `toPhoneNumber` or `toUserId` (Meta's business-scoped user id), exactly one: `freeformMessageSchema`. */
const common = {
  fromPhoneNumber: phoneDigits(phoneDigitBounds.sender),
  toPhoneNumber: v.optional(phoneDigits(phoneDigitBounds.freeformRecipient)),
  toUserId: v.optional(businessScopedUserIdSchema),
};

const messageSchema = v.variant(
  'type',
  [
    v.object({
      ...common,
      type: v.literal('text'),
      text: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(4096, 'must be at most 4096 characters'), sendableText()),
    }),
    v.object({ ...common, type: v.literal('image'), url: mediaUrl(['jpg', 'jpeg', 'png']), caption: optionalText(1024) }),
    v.object({ ...common, type: v.literal('sticker'), url: mediaUrl(['webp']) }),
    v.object({
      ...common,
      type: v.literal('document'),
      url: mediaUrl(['pdf', 'txt', 'doc', 'docx', 'ppt', 'pptx', 'xls', 'xlsx']),
      name: optionalText(240),
      caption: optionalText(1024),
    }),
    v.object({ ...common, type: v.literal('audio'), url: mediaUrl(['aac', 'amr', 'mp3', 'm4a', 'mp4', 'ogg', 'opus']) }),
    v.object({ ...common, type: v.literal('video'), url: mediaUrl(['mp4', '3gp']), caption: optionalText(1024) }),
    v.object({
      ...common,
      type: v.literal('location'),
      latitude: coordinate(90),
      longitude: coordinate(180),
      name: optionalText(1000),
      address: optionalText(1000),
    }),
    v.object({ ...common, type: v.literal('interactive'), interactive: v.variant('type', [buttonMessage, listMessage], "must be 'button' or 'list'") }),
  ],
  'must be one of text, image, document, audio, video, sticker, location, interactive',
);

type Message = v.InferOutput<typeof messageSchema>;

/** One message to one recipient: `toPhoneNumber` (as the contract has it) or `toUserId`, never both. */
export const freeformMessageSchema = v.pipe(
  messageSchema,
  v.forward(
    v.check<Message, string>((request) => request.toPhoneNumber !== undefined || request.toUserId !== undefined, 'is required (or toUserId)'),
    ['toPhoneNumber'],
  ),
  v.forward(
    v.check<Message, string>((request) => request.toPhoneNumber === undefined || request.toUserId === undefined, 'must not be given with toPhoneNumber'),
    ['toUserId'],
  ),
);

export type FreeformMessageRequest = v.InferOutput<typeof freeformMessageSchema>;

/**
 * The key of a free-form message's recipient (recipient.ts `recipientKeyOf`): its number or its business-scoped user id.
 *
 * @example
 * freeformRecipientKeyOf({ ...request, toUserId: 'US.1' }); // 'US.1'
 */
export const freeformRecipientKeyOf = (request: FreeformMessageRequest): string => request.toUserId ?? request.toPhoneNumber ?? '';
