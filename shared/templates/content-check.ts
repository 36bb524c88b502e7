/**
 * Does a send's content fit its template? Run at accept time against the template's requirements
 * (template-requirements.ts), so a request Meta would refuse for every recipient (132012 missing
 * media header, 131008 button without its value, 132000 wrong card count, 100 unknown named
 * parameter, values over Meta's limits) is a 400 naming the field and, for a recipient's own
 * value, its index, before anything is recorded or queued.
 *
 * A value is named by where it came from: `header` for the broadcast's, `data[3].header` for the
 * recipient's own (template-content.schema.ts `effectiveContent`: the recipient's value wins).
 */
import { TemplateContentError } from './errors';
import type { BodyRequirement, ButtonRequirement, CardRequirement, HeaderRequirement, TemplateRequirements } from './template-requirements';
import type { ButtonContent, CardContent, HeaderContent, TemplateContent, TemplateParameters } from './template-content.schema';

/** Names a field of the content being checked by where its value came from. */
export interface ContentSource {
  /** The recipient's own content, when it has any. */
  own?: TemplateContent;
  /** The broadcast's content, when it has any. */
  broadcast?: TemplateContent;
  /** `data[3].` for a recipient, '' for the broadcast itself. */
  ownPrefix: string;
  /** For messages: "template order_shipped". */
  templateLabel: string;
}

const pathOf = (source: ContentSource, field: keyof TemplateContent): string => (source.own?.[field] !== undefined ? `${source.ownPrefix}${field}` : field);
/** A button's field: its place in the recipient's own list, else in the broadcast's (the content checked when neither is given). */
const buttonPathOf = (source: ContentSource, button: ButtonContent, checked: readonly ButtonContent[]): string => {
  const own = source.own?.buttons?.indexOf(button) ?? -1;
  if (own >= 0) return `${source.ownPrefix}buttons[${own}]`;
  const broadcast = source.broadcast?.buttons?.indexOf(button) ?? -1;
  return `buttons[${broadcast >= 0 ? broadcast : checked.indexOf(button)}]`;
};
/** Where a value the send lacks could be given. */
const whereToGive = (source: ContentSource, field: string): string =>
  source.ownPrefix ? `give ${field} at the broadcast level or in ${source.ownPrefix}${field}` : `give ${field}`;

const HEADER_KIND: Record<HeaderRequirement['type'], HeaderContent['type']> = {
  TEXT: 'text',
  IMAGE: 'image',
  VIDEO: 'video',
  DOCUMENT: 'document',
  LOCATION: 'location',
};

function checkHeader(requirement: HeaderRequirement | undefined, header: HeaderContent | undefined, path: string, source: ContentSource, where: string): void {
  const needed = requirement && (requirement.type !== 'TEXT' || requirement.dynamic) ? requirement : undefined;
  if (!needed) {
    if (header) throw new TemplateContentError(`${path} is not expected: ${source.templateLabel} has no ${requirement ? 'header variable' : 'header'} to fill`);
    return;
  }
  const kind = HEADER_KIND[needed.type];
  if (!header)
    throw new TemplateContentError(
      `${where}header is required: ${source.templateLabel} has a${needed.type === 'IMAGE' ? 'n' : ''} ${needed.type} header (${whereToGive(source, 'header')})`,
    );
  if (header.type !== kind)
    throw new TemplateContentError(`${path}.type must be ${kind}: ${source.templateLabel} has a${needed.type === 'IMAGE' ? 'n' : ''} ${needed.type} header`);
  if (header.type === 'text' && needed.type === 'TEXT' && needed.maxLength !== undefined && header.text.length > needed.maxLength) {
    throw new TemplateContentError(`${path}.text must be at most ${needed.maxLength} characters: Meta's 60-character header limit, less the header's own text`);
  }
}

const BUTTON_KIND: Record<ButtonContent['type'], string> = { url: 'URL', quick_reply: 'QUICK_REPLY', copy_code: 'COPY_CODE' };

function buttonValueLength(button: ButtonContent): number {
  // A tracked link's destination is not what Meta gets (its token is): only `text` fills the URL's room.
  return button.type === 'url' ? (button.text?.length ?? 0) : button.type === 'copy_code' ? button.couponCode.length : button.payload.length;
}

const hasButton = (buttons: readonly ButtonContent[], index: number): boolean => {
  for (const button of buttons) if (button.index === index) return true;
  return false;
};

/** Run once per recipient with buttons of its own (10,000 times for a broadcast of URL suffixes): paths are built only for a message. */
function checkButtons(
  requirements: readonly ButtonRequirement[] = [],
  buttons: readonly ButtonContent[] = [],
  pathFor: (button: ButtonContent) => string,
  source: ContentSource,
  where: string,
): void {
  for (const button of buttons) {
    const requirement = requirements[button.index];
    if (!requirement) {
      throw new TemplateContentError(
        `${pathFor(button)}.index ${button.index} is not a button of ${source.templateLabel} (it has ${requirements.length === 0 ? 'no buttons' : `buttons 0..${requirements.length - 1}`})`,
      );
    }
    if (requirement.type !== BUTTON_KIND[button.type]) {
      throw new TemplateContentError(
        `${pathFor(button)}.type ${button.type} does not match button ${button.index} of ${source.templateLabel}, a ${requirement.type} button`,
      );
    }
    if (requirement.type === 'URL' && !requirement.dynamic) {
      throw new TemplateContentError(
        `${pathFor(button)} is not expected: button ${button.index} of ${source.templateLabel} is a URL button without a variable`,
      );
    }
    if (button.type === 'url' && button.trackedUrl !== undefined && !requirement.tracked) {
      throw new TemplateContentError(
        `${pathFor(button)}.trackedUrl is not expected: button ${button.index} of ${source.templateLabel} is not a tracked link (its URL must be {clickBaseUrl}/r/{{1}}; docs/OUTCOMES.md "Tracked links"); give text instead`,
      );
    }
    if (requirement.maxLength !== undefined && buttonValueLength(button) > requirement.maxLength) {
      const field = button.type === 'url' ? 'text' : 'couponCode';
      throw new TemplateContentError(
        `${pathFor(button)}.${field} must be at most ${requirement.maxLength} characters for button ${button.index} of ${source.templateLabel}`,
      );
    }
  }
  const missing = requirements.find((requirement) => requirement.dynamic && !hasButton(buttons, requirement.index));
  if (missing) {
    const example = missing.tracked
      ? `{ "index": ${missing.index}, "type": "url", "trackedUrl": "https://…" }`
      : missing.type === 'URL'
        ? `{ "index": ${missing.index}, "type": "url", "text": "…" }`
        : `{ "index": ${missing.index}, "type": "copy_code", "couponCode": "…" }`;
    throw new TemplateContentError(
      `${where}buttons must give button ${missing.index}: it is a ${missing.type} button of ${source.templateLabel} that takes a value (${example}; ${whereToGive(source, 'buttons')})`,
    );
  }
}

/**
 * Body values against the body's placeholders, for a named template (a positional template's count
 * is checked where the contract words it: send-template-broadcast.ts `resolveRecipients`).
 */
export function checkNamedParameters(body: BodyRequirement, parameters: TemplateParameters | undefined, path: string, templateLabel: string): void {
  if (body.format === 'POSITIONAL') {
    if (parameters !== undefined && !Array.isArray(parameters)) {
      throw new TemplateContentError(`${path} must be an array: ${templateLabel} has numbered placeholders ({{1}}, {{2}}, …), not named ones`);
    }
    return;
  }
  if (Array.isArray(parameters)) {
    if (parameters.length === 0 && body.names.length === 0) return;
    throw new TemplateContentError(`${path} must be an object of values by name: ${templateLabel} has named parameters (${body.names.join(', ')})`);
  }
  const given = Object.keys(parameters ?? {});
  const unknown = given.find((name) => !body.names.includes(name));
  if (unknown) throw new TemplateContentError(`${path}.${unknown} is not a parameter of ${templateLabel} (it has ${body.names.join(', ') || 'none'})`);
  const missing = body.names.filter((name) => !given.includes(name));
  if (missing.length > 0) throw new TemplateContentError(`${path} is missing ${missing.join(', ')}: ${templateLabel} needs ${body.names.join(', ')}`);
}

function checkCard(requirement: CardRequirement, card: CardContent, path: string, source: ContentSource): void {
  checkHeader(requirement.header, card.header, `${path}.header`, source, `${path}.`);
  const parameters = card.templateParams;
  if (requirement.body.format === 'POSITIONAL' && (Array.isArray(parameters) || parameters === undefined)) {
    const count = parameters?.length ?? 0;
    if (count !== requirement.body.count) {
      throw new TemplateContentError(
        `${path}.templateParams has ${count} values; each card of ${source.templateLabel} needs exactly ${requirement.body.count}`,
      );
    }
  }
  checkNamedParameters(requirement.body, parameters, `${path}.templateParams`, `each card of ${source.templateLabel}`);
  const buttons = card.buttons ?? [];
  checkButtons(requirement.buttons, buttons, (button) => `${path}.buttons[${buttons.indexOf(button)}]`, source, `${path}.`);
}

function checkCarousel(requirement: TemplateRequirements['carousel'], cards: readonly CardContent[] | undefined, source: ContentSource, where: string): void {
  if (!requirement) {
    if (cards) throw new TemplateContentError(`${pathOf(source, 'carousel')} is not expected: ${source.templateLabel} is not a carousel template`);
    return;
  }
  const path = pathOf(source, 'carousel');
  if (!cards)
    throw new TemplateContentError(
      `${where}carousel is required: ${source.templateLabel} has a carousel of ${requirement.cards} cards (${whereToGive(source, 'carousel')})`,
    );
  if (cards.length !== requirement.cards) {
    throw new TemplateContentError(
      `${path} has ${cards.length} card${cards.length === 1 ? '' : 's'}; ${source.templateLabel} has exactly ${requirement.cards}, one entry per card in order`,
    );
  }
  cards.forEach((card, index) => checkCard(requirement, card, `${path}[${index}]`, source));
}

function checkOffer(
  requirement: TemplateRequirements['limitedTimeOffer'],
  content: TemplateContent,
  source: ContentSource,
  where: string,
  notBefore: Date,
): void {
  const offer = content.limitedTimeOffer;
  if (!requirement) {
    if (offer)
      throw new TemplateContentError(`${pathOf(source, 'limitedTimeOffer')} is not expected: ${source.templateLabel} is not a limited-time-offer template`);
    return;
  }
  const path = pathOf(source, 'limitedTimeOffer');
  if (!offer) {
    if (requirement.hasExpiration)
      throw new TemplateContentError(
        `${where}limitedTimeOffer is required: ${source.templateLabel} shows an offer expiry (${whereToGive(source, 'limitedTimeOffer')})`,
      );
    return;
  }
  if (Date.parse(offer.expiresAt) <= notBefore.getTime()) {
    throw new TemplateContentError(`${path}.expiresAt must be after the time the message is sent (${notBefore.toISOString()})`);
  }
}

/**
 * Throws TemplateContentError for the first part of `content` that does not fit `requirements`;
 * `content` is what one recipient is sent (effectiveContent), `source` says where each part came from.
 *
 * @example
 * checkTemplateContent(requirementsOf(orderShipped), {}, { ownPrefix: 'data[0].', templateLabel: 'template order_shipped' }, now);
 * // throws: "data[0].header is required: template order_shipped has an IMAGE header (give header at the broadcast level or in data[0].header)"
 */
export function checkTemplateContent(requirements: TemplateRequirements, content: TemplateContent, source: ContentSource, sendsAt: Date): void {
  const where = source.ownPrefix;
  if (requirements.header !== undefined || content.header !== undefined)
    checkHeader(requirements.header, content.header, pathOf(source, 'header'), source, where);
  checkButtons(requirements.buttons, content.buttons, (button) => buttonPathOf(source, button, content.buttons ?? []), source, where);
  checkCarousel(requirements.carousel, content.carousel, source, where);
  checkOffer(requirements.limitedTimeOffer, content, source, where, sendsAt);
}

/**
 * Every media id the content names, with the field that names it (so a foreign id is refused by name).
 *
 * @example
 * mediaIdsOf({ header: { type: 'image', mediaId: '42' } }, ''); // [{ id: '42', path: 'header.mediaId' }]
 */
export function mediaIdsOf(content: TemplateContent | undefined, prefix: string): Array<{ id: string; path: string }> {
  const ids: Array<{ id: string; path: string }> = [];
  const add = (header: HeaderContent | undefined, path: string) => {
    if (header && 'mediaId' in header && header.mediaId !== undefined) ids.push({ id: header.mediaId, path: `${path}.mediaId` });
  };
  add(content?.header, `${prefix}header`);
  content?.carousel?.forEach((card, index) => add(card.header, `${prefix}carousel[${index}].header`));
  return ids;
}
