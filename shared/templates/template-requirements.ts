/**
 * What a send of a template must carry, read from the template's own components as Meta lists
 * them (GET /{waba-id}/message_templates; `../shared/meta/template-components.md` §7): the header
 * kind, the body's placeholders (positional count or names), which buttons take a value, the
 * carousel's cards and the limited-time offer. The template list shows it as `parameters`, and the
 * accept checks every request against it (content-check.ts), so nothing Meta would refuse for
 * every recipient is accepted.
 *
 * Components the platform cannot fill (catalog and multi-product buttons, product headers,
 * authentication codes) mark the template `sendable: false` with the reason, rather than hiding it.
 */
import { MAX_COUPON_CODE_LENGTH, MAX_HEADER_TEXT_LENGTH, MAX_URL_LENGTH } from './template-content.schema';

export type HeaderRequirement =
  /** `dynamic`: the header text has a variable, so a send gives its one value (`name` in a named template). */
  { type: 'TEXT'; dynamic: boolean; name?: string; maxLength?: number } | { type: 'IMAGE' | 'VIDEO' | 'DOCUMENT' | 'LOCATION' };

export type BodyRequirement = { format: 'POSITIONAL'; count: number } | { format: 'NAMED'; names: string[] };

export interface ButtonRequirement {
  /** The button's position in the template (Meta's `index`). */
  index: number;
  /** Meta's button type: URL, QUICK_REPLY, COPY_CODE, PHONE_NUMBER, FLOW, … */
  type: string;
  /** A send must give a value: a URL with a variable, a copy code. A quick reply takes an optional payload. */
  dynamic: boolean;
  /** A URL variable's name in a named template. */
  name?: string;
  /** The longest value Meta takes: what is left of 2,000 characters after the URL's fixed part; a copy code's 20 (15 in a limited-time offer). */
  maxLength?: number;
  /**
   * A tracked link (docs/OUTCOMES.md "Tracked links"): the URL is `{clickBaseUrl}/r/{{1}}`, so a
   * send may give `trackedUrl` (the platform fills the token) instead of `text`.
   */
  tracked?: true;
}

/** How the platform's own links look: `clickBaseUrl` (CLICK_BASE_URL) names the redirect's base. */
export interface RequirementOptions {
  clickBaseUrl?: string;
}

/**
 * Whether a URL button's `url` is the platform's tracked link, `{clickBaseUrl}/r/{{1}}`.
 *
 * @example
 * isTrackedLinkUrl('https://links.example/go/r/{{1}}', 'https://links.example/go'); // true
 * isTrackedLinkUrl('https://shop.example/p/{{1}}', 'https://links.example/go'); // false
 */
export function isTrackedLinkUrl(url: unknown, clickBaseUrl: string | undefined): boolean {
  if (typeof url !== 'string' || !clickBaseUrl) return false;
  return url === `${clickBaseUrl.replace(/\/+$/, '')}/r/{{1}}`;
}

export interface CardRequirement {
  header?: HeaderRequirement;
  body: BodyRequirement;
  buttons: ButtonRequirement[];
}

export interface TemplateRequirements {
  /** False when a component needs a value the platform cannot give (see `unsupported`). */
  sendable: boolean;
  unsupported?: string[];
  header?: HeaderRequirement;
  body: BodyRequirement;
  buttons?: ButtonRequirement[];
  carousel?: CardRequirement & { cards: number };
  limitedTimeOffer?: { hasExpiration: boolean };
}

/** A template's components as Meta's GET lists them (upper-case types; `format`, `text`, `buttons`, `cards`, …). */
type Component = { type: string; text?: string; format?: string; [key: string]: unknown };

/** The part of Meta's template record this module reads (the Cloud API port's UpstreamTemplate fits it). */
export interface TemplateDefinition {
  components: readonly Component[];
  /** `POSITIONAL` or `NAMED`; absent from older answers (named variables in the body then decide). */
  parameter_format?: string;
  category?: string;
  /** The platform's tracked-link base as the template catalog stamps it (CLICK_BASE_URL); the options' own wins. */
  clickBaseUrl?: string;
}

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const variablesIn = (text: unknown): string[] => (typeof text === 'string' ? [...text.matchAll(VARIABLE)].map((match) => match[1] ?? '') : []);
/** What is left of `limit` characters once `text`'s fixed part (all but its variable) is counted. */
const roomIn = (text: unknown, limit: number): number => Math.max(0, limit - (typeof text === 'string' ? text.replace(VARIABLE, '').length : 0));
/** Meta's limited-time-offer page caps the offer code at 15 characters. */
const MAX_OFFER_CODE_LENGTH = 15;
const isPositional = (token: string): boolean => /^\d+$/.test(token);

const upper = (value: unknown): string => (typeof value === 'string' ? value.toUpperCase() : '');
const componentOf = (components: readonly Component[], type: string): Component | undefined => components.find((component) => upper(component.type) === type);

/** Buttons that need an action object (product ids, sections) a broadcast request has no field for. */
const UNFILLABLE_BUTTONS: Record<string, string> = {
  CATALOG: 'catalog buttons need a product thumbnail',
  MPM: 'multi-product buttons need product sections',
  SPM: 'single-product buttons need a product',
  OTP: 'one-time-password buttons belong to authentication templates',
};

function bodyOf(components: readonly Component[], named: boolean): BodyRequirement {
  const tokens = variablesIn(componentOf(components, 'BODY')?.text);
  if (named || tokens.some((token) => !isPositional(token))) return { format: 'NAMED', names: [...new Set(tokens.filter((token) => !isPositional(token)))] };
  // Meta numbers positional placeholders {{1}}..{{n}} without gaps: the highest is the count.
  return { format: 'POSITIONAL', count: tokens.reduce((highest, token) => Math.max(highest, Number(token)), 0) };
}

function headerOf(components: readonly Component[], unsupported: string[], at: string): HeaderRequirement | undefined {
  const header = componentOf(components, 'HEADER');
  if (!header) return undefined;
  const format = upper(header.format) || 'TEXT';
  if (format === 'TEXT') {
    const [variable] = variablesIn(header.text);
    if (variable === undefined) return { type: 'TEXT', dynamic: false };
    const maxLength = roomIn(header.text, MAX_HEADER_TEXT_LENGTH);
    return isPositional(variable) ? { type: 'TEXT', dynamic: true, maxLength } : { type: 'TEXT', dynamic: true, name: variable, maxLength };
  }
  if (format === 'IMAGE' || format === 'VIDEO' || format === 'DOCUMENT' || format === 'LOCATION') return { type: format };
  unsupported.push(`${at}header: ${format} headers cannot be filled by a broadcast`);
  return undefined;
}

function buttonsOf(components: readonly Component[], unsupported: string[], at: string, offer: boolean, options: RequirementOptions = {}): ButtonRequirement[] {
  const buttons = componentOf(components, 'BUTTONS')?.buttons;
  if (!Array.isArray(buttons)) return [];
  return buttons.map((button: Record<string, unknown>, index): ButtonRequirement => {
    const type = upper(button.type);
    const unfillable = UNFILLABLE_BUTTONS[type] ?? (button.otp_type !== undefined ? UNFILLABLE_BUTTONS.OTP : undefined);
    if (unfillable) unsupported.push(`${at}buttons[${index}]: ${type} buttons cannot be filled by a broadcast (${unfillable})`);
    if (type === 'URL') {
      const [variable] = variablesIn(button.url);
      if (variable === undefined) return { index, type, dynamic: false };
      const maxLength = roomIn(button.url, MAX_URL_LENGTH);
      if (isTrackedLinkUrl(button.url, options.clickBaseUrl)) return { index, type, dynamic: true, maxLength, tracked: true };
      return isPositional(variable) ? { index, type, dynamic: true, maxLength } : { index, type, dynamic: true, name: variable, maxLength };
    }
    if (type === 'COPY_CODE') return { index, type, dynamic: true, maxLength: offer ? MAX_OFFER_CODE_LENGTH : MAX_COUPON_CODE_LENGTH };
    return { index, type, dynamic: false };
  });
}

function carouselOf(components: readonly Component[], named: boolean, unsupported: string[]): TemplateRequirements['carousel'] {
  const carousel = componentOf(components, 'CAROUSEL');
  const cards = Array.isArray(carousel?.cards) ? (carousel.cards as Array<{ components?: Component[] }>) : undefined;
  if (!cards || cards.length === 0) return undefined;
  // Meta requires every card to have the same component set: the first card describes them all.
  const first = cards[0]?.components ?? [];
  const header = headerOf(first, unsupported, 'carousel.');
  return { cards: cards.length, ...(header && { header }), body: bodyOf(first, named), buttons: buttonsOf(first, unsupported, 'carousel.', false) };
}

/**
 * The requirements of `template`, as the template list shows them and the accept enforces them.
 *
 * @example
 * requirementsOf({ id: '1', name: 'order_shipped', language: 'en_US', status: 'APPROVED', category: 'UTILITY', components: [
 *   { type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Hi {{1}}, order {{2}}' },
 *   { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example/track/{{1}}' }] }] });
 * // { sendable: true, header: { type: 'IMAGE' }, body: { format: 'POSITIONAL', count: 2 }, buttons: [{ index: 0, type: 'URL', dynamic: true }] }
 * // with { clickBaseUrl } and a button URL `{clickBaseUrl}/r/{{1}}`: that button also says `tracked: true`
 */
export function requirementsOf(template: TemplateDefinition, options: RequirementOptions = { clickBaseUrl: template.clickBaseUrl }): TemplateRequirements {
  const components = template.components ?? [];
  const named = upper(template.parameter_format) === 'NAMED';
  const unsupported: string[] = [];
  if (upper(template.category) === 'AUTHENTICATION') unsupported.push('category: authentication templates are sent with a one-time code, not by broadcast');
  const offer = componentOf(components, 'LIMITED_TIME_OFFER');
  const header = headerOf(components, unsupported, '');
  const buttons = buttonsOf(components, unsupported, '', offer !== undefined, options);
  const carousel = carouselOf(components, named, unsupported);
  const hasExpiration = (offer?.limited_time_offer as { has_expiration?: unknown } | undefined)?.has_expiration === true;
  return {
    sendable: unsupported.length === 0,
    ...(unsupported.length > 0 && { unsupported }),
    ...(header && { header }),
    body: bodyOf(components, named),
    ...(buttons.length > 0 && { buttons }),
    ...(carousel && { carousel }),
    ...(offer && { limitedTimeOffer: { hasExpiration } }),
  };
}

/** The number of values a positional body needs (0 for a named one): the contract's placeholder count. */
export const positionalCount = (body: BodyRequirement): number => (body.format === 'POSITIONAL' ? body.count : 0);
