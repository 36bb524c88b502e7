/**
 * The parts of a template send beyond body placeholders, as a broadcast request writes them: a
 * header (media by link or uploaded id, text, location), button values by the button's position,
 * named body parameters, carousel cards and a limited-time offer's expiry (docs/BROADCAST.md
 * "Rich templates"). These schemas check each value on its own (shape, Meta's per-value limits,
 * https links); whether the values fit the chosen template is content-check.ts's job, because
 * only the template's own components say what it needs.
 */
import * as v from 'valibot';
import { sendableText } from './sendable-text';

/** Meta's limit on one template parameter value. */
export const MAX_PARAMETER_LENGTH = 1024;
/** Meta: a URL (after its variable is filled) is at most 2,000 characters; so is a media link. */
export const MAX_URL_LENGTH = 2000;
/** Meta: a copy-code button's code is at most 20 characters (15 in a limited-time offer). */
export const MAX_COUPON_CODE_LENGTH = 20;
/** Meta: a text header is at most 60 characters. */
export const MAX_HEADER_TEXT_LENGTH = 60;
/** Meta: 2 to 10 cards in a media-card carousel; 10 buttons per template. */
export const MAX_CAROUSEL_CARDS = 10;
export const MAX_BUTTONS = 10;

const parameterValue = v.pipe(v.string(), v.maxLength(MAX_PARAMETER_LENGTH, `values must be at most ${MAX_PARAMETER_LENGTH} characters`), sendableText());

/** Positional values, in placeholder order ({{1}}, {{2}}, …). */
export const positionalParametersSchema = v.array(parameterValue);

/** Meta's named placeholders: lowercase letters, digits and underscores, starting with a letter or underscore. */
export const PARAMETER_NAME = /^[a-z_][a-z0-9_]*$/;
const namedParametersSchema = v.pipe(
  v.record(v.pipe(v.string(), v.regex(PARAMETER_NAME, 'names must be lowercase letters, digits and underscores (e.g. first_name)')), parameterValue),
  v.check((values) => Object.keys(values).length > 0, 'must name at least one parameter'),
);

/**
 * `templateParams` / `globalTemplateParams`: an array for a positional template, an object of
 * values by name for a template created with named parameters. Chosen by the value's kind (not a
 * union), so a broken value gets its own rule's message ("values must be at most 1024
 * characters"), and anything else is told it must be an array, as before named parameters.
 */
export const templateParametersSchema = v.lazy((input: unknown) =>
  typeof input === 'object' && input !== null && !Array.isArray(input) ? namedParametersSchema : positionalParametersSchema,
);
export type TemplateParameters = v.InferOutput<typeof templateParametersSchema>;
/** The two forms of templateParametersSchema, for documents that describe it (the OpenAPI document's `anyOf`). */
export const templateParametersForms = [positionalParametersSchema, namedParametersSchema] as const;

const httpsLink = v.pipe(
  v.string(),
  v.maxLength(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`),
  v.url('must be a URL'),
  v.check((link) => link.startsWith('https://'), 'must be an https:// URL: Meta fetches media over HTTPS only'),
);
const mediaId = v.pipe(v.string(), v.regex(/^\d{1,30}$/, 'must be a media id as Meta returns it (digits only)'));

const exactlyOneSource = 'must have exactly one of link and mediaId';
const hasOneSource = <Header extends { link?: string; mediaId?: string }>(header: Header): boolean =>
  (header.link === undefined) !== (header.mediaId === undefined);
const mediaSource = { link: v.optional(httpsLink), mediaId: v.optional(mediaId) };
/** A media header: exactly one of `link` and `mediaId` (an id the organization uploaded through /upstream). */
const imageHeader = v.pipe(v.object({ type: v.literal('image'), ...mediaSource }), v.check(hasOneSource, exactlyOneSource));
const videoHeader = v.pipe(v.object({ type: v.literal('video'), ...mediaSource }), v.check(hasOneSource, exactlyOneSource));
const documentHeader = v.pipe(
  v.object({
    type: v.literal('document'),
    ...mediaSource,
    /** The name WhatsApp shows for the file. */
    filename: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(240, 'must be at most 240 characters'), sendableText())),
  }),
  v.check(hasOneSource, exactlyOneSource),
);

const textHeader = v.object({
  type: v.literal('text'),
  text: v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(MAX_HEADER_TEXT_LENGTH, `must be at most ${MAX_HEADER_TEXT_LENGTH} characters`),
    sendableText(),
  ),
});

const placeText = (maxLength: number) => v.optional(v.pipe(v.string(), v.maxLength(maxLength, `must be at most ${maxLength} characters`), sendableText()));
const locationHeader = v.object({
  type: v.literal('location'),
  latitude: v.pipe(v.number(), v.minValue(-90, 'must be between -90 and 90'), v.maxValue(90, 'must be between -90 and 90')),
  longitude: v.pipe(v.number(), v.minValue(-180, 'must be between -180 and 180'), v.maxValue(180, 'must be between -180 and 180')),
  name: placeText(1000),
  address: placeText(1000),
});

const HEADER_TYPES_RULE = 'must be image, video, document, text or location';
export const headerSchema = v.variant('type', [imageHeader, videoHeader, documentHeader, textHeader, locationHeader], HEADER_TYPES_RULE);
export type HeaderContent = v.InferOutput<typeof headerSchema>;
export type MediaHeaderContent = Extract<HeaderContent, { type: 'image' | 'video' | 'document' }>;

const TRACKED_OR_TEXT_RULE = 'must not be given with both text and trackedUrl: a url button takes text (the URL variable) or trackedUrl (a tracked link)';
/** A tracked link's destination (docs/OUTCOMES.md "Tracked links"): https only, as long as Meta allows a URL. */
export const trackedUrlSchema = v.pipe(
  v.string('must be a string'),
  v.maxLength(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`),
  v.url('must be a URL'),
  v.check((url) => url.startsWith('https://'), 'must be an https:// URL: a tracked link only redirects to https'),
);

/** The button's 0-based position in the template's BUTTONS component (Meta's `index`). */
const buttonIndex = v.pipe(
  v.number(),
  v.integer('must be an integer'),
  v.minValue(0, 'must be at least 0'),
  v.maxValue(MAX_BUTTONS - 1, `must be at most ${MAX_BUTTONS - 1}`),
);
const buttonSchema = v.variant(
  'type',
  [
    /** A URL button's variable: the suffix after the template's fixed part of the URL. */
    v.object({
      index: buttonIndex,
      type: v.literal('url'),
      text: v.pipe(
        v.string(),
        v.minLength(1, 'must not be empty'),
        v.maxLength(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`),
        sendableText(),
      ),
      trackedUrl: v.optional(v.never(TRACKED_OR_TEXT_RULE)),
    }),
    /**
     * A tracked URL button (docs/OUTCOMES.md "Tracked links"): the template's URL is
     * `{clickBaseUrl}/r/{{1}}`, the platform fills the suffix with the recipient's token at send time
     * and its redirect sends the person to `trackedUrl`. After the plain one: a `text` parses as before.
     */
    v.object({ index: buttonIndex, type: v.literal('url'), trackedUrl: trackedUrlSchema, text: v.optional(v.never(TRACKED_OR_TEXT_RULE)) }),
    /** Returned in the inbound `button` message when the user taps it. */
    v.object({
      index: buttonIndex,
      type: v.literal('quick_reply'),
      payload: v.pipe(
        v.string(),
        v.minLength(1, 'must not be empty'),
        v.maxLength(MAX_PARAMETER_LENGTH, `must be at most ${MAX_PARAMETER_LENGTH} characters`),
        sendableText(),
      ),
    }),
    v.object({
      index: buttonIndex,
      type: v.literal('copy_code'),
      couponCode: v.pipe(
        v.string(),
        v.minLength(1, 'must not be empty'),
        v.maxLength(MAX_COUPON_CODE_LENGTH, `must be at most ${MAX_COUPON_CODE_LENGTH} characters`),
        sendableText(),
      ),
    }),
  ],
  'must be url, quick_reply or copy_code',
);
export type ButtonContent = v.InferOutput<typeof buttonSchema>;

export const buttonsSchema = v.pipe(
  v.array(buttonSchema, 'must be an array of buttons'),
  v.minLength(1, 'must hold at least 1 button'),
  v.maxLength(MAX_BUTTONS, `must hold at most ${MAX_BUTTONS} buttons`),
  v.check((buttons) => new Set(buttons.map(({ index }) => index)).size === buttons.length, 'must give each index at most once'),
);

const cardSchema = v.object({
  header: v.variant('type', [imageHeader, videoHeader], 'must be image or video (a carousel card has a media header)'),
  templateParams: v.optional(templateParametersSchema),
  buttons: v.optional(buttonsSchema),
});
export type CardContent = v.InferOutput<typeof cardSchema>;

export const carouselSchema = v.pipe(
  v.array(cardSchema, 'must be an array of cards'),
  v.minLength(1, 'must hold at least 1 card'),
  v.maxLength(MAX_CAROUSEL_CARDS, `must hold at most ${MAX_CAROUSEL_CARDS} cards`),
);

/** ISO 8601 with an offset or Z: the same rule as scheduledAt (template-broadcast.schema.ts). */
export const limitedTimeOfferSchema = (isoDateTime: v.GenericSchema<string, string>) => v.object({ expiresAt: isoDateTime });
export interface LimitedTimeOfferContent {
  expiresAt: string;
}

/** Everything a template send carries besides body parameters; each part optional. */
export interface TemplateContent {
  header?: HeaderContent;
  buttons?: ButtonContent[];
  carousel?: CardContent[];
  limitedTimeOffer?: LimitedTimeOfferContent;
}

/** The content entries of a broadcast request and of each of its recipients (same names at both levels), described for the API reference. */
export const templateContentEntries = (isoDateTime: v.GenericSchema<string, string>) => ({
  header: v.optional(
    v.pipe(
      headerSchema,
      v.description(
        "The template's header value: a media header by https link or uploaded mediaId (document: filename), the text of a text header's variable, or a location",
      ),
      v.examples([
        { type: 'image', link: 'https://cdn.example.com/parcel.jpg' },
        { type: 'document', mediaId: '1602186516975000', filename: 'Invoice-0042.pdf' },
        { type: 'text', text: 'Ada' },
        { type: 'location', latitude: 37.4421, longitude: -122.1615, name: 'Philz Coffee', address: '101 Forest Ave, Palo Alto' },
      ]),
    ),
  ),
  buttons: v.optional(
    v.pipe(
      buttonsSchema,
      v.description(
        "Values of the template's buttons by index (the button's position in the template); a recipient's buttons merge with the broadcast's by index",
      ),
      v.examples([
        [
          { index: 0, type: 'url', text: 'A-17' },
          { index: 1, type: 'quick_reply', payload: 'STOP-PROMO' },
        ],
        [{ index: 0, type: 'copy_code', couponCode: 'SUMMER20' }],
      ]),
    ),
  ),
  carousel: v.optional(
    v.pipe(
      carouselSchema,
      v.description("One entry per card of a carousel template, in order: the card's media header, body values and buttons"),
      v.examples([
        [
          {
            header: { type: 'image', link: 'https://cdn.example.com/shirt.jpg' },
            templateParams: ['Linen shirt'],
            buttons: [{ index: 0, type: 'url', text: 'linen-shirt' }],
          },
          {
            header: { type: 'image', link: 'https://cdn.example.com/hat.jpg' },
            templateParams: ['Straw hat'],
            buttons: [{ index: 0, type: 'url', text: 'straw-hat' }],
          },
        ],
      ]),
    ),
  ),
  limitedTimeOffer: v.optional(
    v.pipe(
      limitedTimeOfferSchema(isoDateTime),
      v.description("A limited-time-offer template's expiry (ISO 8601 with an offset), after the send"),
      v.examples([{ expiresAt: '2026-12-31T23:59:59Z' }]),
    ),
  ),
});

/**
 * The content a recipient is sent: its own value of each part, else the broadcast's. Buttons merge
 * by index, so a broadcast-wide quick-reply payload and a per-recipient URL suffix go together.
 *
 * @example
 * effectiveContent({ buttons: [{ index: 1, type: 'quick_reply', payload: 'STOP' }] }, { buttons: [{ index: 0, type: 'url', text: 'A-17' }] });
 * // { buttons: [{ index: 0, type: 'url', text: 'A-17' }, { index: 1, type: 'quick_reply', payload: 'STOP' }] }
 */
export function effectiveContent(broadcast: TemplateContent | undefined, own: TemplateContent | undefined): TemplateContent {
  if (!own) return broadcast ?? {};
  if (!broadcast) return own;
  const content: TemplateContent = {};
  const header = own.header ?? broadcast.header;
  if (header) content.header = header;
  const buttons = mergeButtons(broadcast.buttons, own.buttons);
  if (buttons) content.buttons = buttons;
  const carousel = own.carousel ?? broadcast.carousel;
  if (carousel) content.carousel = carousel;
  const limitedTimeOffer = own.limitedTimeOffer ?? broadcast.limitedTimeOffer;
  if (limitedTimeOffer) content.limitedTimeOffer = limitedTimeOffer;
  return content;
}

function mergeButtons(broadcast: ButtonContent[] | undefined, own: ButtonContent[] | undefined): ButtonContent[] | undefined {
  if (!own || !broadcast) return own ?? broadcast;
  const byIndex = new Map(broadcast.map((button) => [button.index, button]));
  for (const button of own) byIndex.set(button.index, button);
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

/** The content parts of `source` (a request or one of its recipients), undefined when it has none. */
export function contentOf(source: TemplateContent): TemplateContent | undefined {
  const { header, buttons, carousel, limitedTimeOffer } = source;
  if (!header && !buttons && !carousel && !limitedTimeOffer) return undefined;
  // Built field by field, in this order, rather than by spreads: it runs once per recipient.
  const content: TemplateContent = {};
  if (header) content.header = header;
  if (buttons) content.buttons = buttons;
  if (carousel) content.carousel = carousel;
  if (limitedTimeOffer) content.limitedTimeOffer = limitedTimeOffer;
  return content;
}
