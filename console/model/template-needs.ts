/**
 * What a template needs from a campaign, as fields of the builder (docs/CONSOLE.md "New campaign"):
 * one per body variable, the header (a media link or the text variable) and each button that takes a
 * value, read from the template list's `parameters`; and the campaign's values built from what the
 * person mapped (the API's literals and `{ attribute, fallback }` references, docs/CAMPAIGNS.md
 * "Attribute mapping").
 */
import type { CampaignValues } from '../../shared/campaigns/campaign-values';
import type { TemplateRequirements, TemplateView } from './api-types';

export type NeedPlace =
  | { in: 'body'; position: number }
  | { in: 'body'; name: string }
  | { in: 'header'; type: 'text' | 'image' | 'video' | 'document' }
  | { in: 'button'; index: number; type: 'url' | 'quick_reply' | 'copy_code'; tracked?: boolean };

export interface Need {
  /** Unique within the template: the field's id. */
  key: string;
  label: string;
  place: NeedPlace;
  /** Optional (a quick reply's payload): left empty, nothing is sent for it. */
  optional: boolean;
  maxLength?: number;
}

/** A value as the person set it: a member's attribute with an optional fallback, or one text for everyone. */
export type Mapping = { source: 'attribute'; attribute: string; fallback: string } | { source: 'literal'; value: string };

const MEDIA = { IMAGE: 'image', VIDEO: 'video', DOCUMENT: 'document' } as const;
const BUTTON_TYPES = { URL: 'url', QUICK_REPLY: 'quick_reply', COPY_CODE: 'copy_code' } as const;
const BUTTON_LABELS = { url: 'URL suffix', quick_reply: 'Quick-reply payload', copy_code: 'Coupon code' } as const;

/** Why the builder cannot fill a template (the API can: docs/CAMPAIGNS.md), or undefined. */
export function unsupportedInBuilder(parameters: TemplateRequirements): string | undefined {
  if (!parameters.sendable) return `cannot be sent by broadcast: ${(parameters.unsupported ?? []).join('; ')}`;
  if (parameters.carousel) return 'has a carousel: create it with the API (docs/CAMPAIGNS.md)';
  if (parameters.limitedTimeOffer) return 'has a limited-time offer: create it with the API (docs/CAMPAIGNS.md)';
  if (parameters.header?.type === 'LOCATION') return 'has a location header: create it with the API (docs/CAMPAIGNS.md)';
  return undefined;
}

function headerNeed(header: TemplateRequirements['header']): Need[] {
  if (!header) return [];
  if (header.type === 'TEXT')
    return header.dynamic
      ? [{ key: 'header', label: 'Header text variable', place: { in: 'header', type: 'text' }, optional: false, maxLength: header.maxLength }]
      : [];
  if (header.type === 'LOCATION') return [];
  const type = MEDIA[header.type];
  return [{ key: 'header', label: `Header ${type} link (https://)`, place: { in: 'header', type }, optional: false }];
}

/** A button of the template list; `tracked` (issue 38): a URL button on the platform's click link, which takes `trackedUrl`. */
type ListedButton = NonNullable<TemplateRequirements['buttons']>[number] & { tracked?: boolean };

/** The longest tracked destination the API takes (docs/OUTCOMES.md "Tracked links"). */
export const MAX_TRACKED_URL_LENGTH = 2_000;

function buttonNeeds(buttons: readonly ListedButton[] | undefined): Need[] {
  return (buttons ?? []).flatMap((button): Need[] => {
    const type = BUTTON_TYPES[button.type as keyof typeof BUTTON_TYPES];
    if (type === 'url' && button.tracked) {
      return [
        {
          key: `button-${button.index}`,
          label: `Button ${button.index + 1}: tracked link destination (https://)`,
          place: { in: 'button', index: button.index, type, tracked: true },
          optional: false,
          maxLength: MAX_TRACKED_URL_LENGTH,
        },
      ];
    }
    if (!type || (type === 'url' && !button.dynamic)) return [];
    return [
      {
        key: `button-${button.index}`,
        label: `Button ${button.index + 1}: ${BUTTON_LABELS[type]}`,
        place: { in: 'button', index: button.index, type },
        optional: type === 'quick_reply',
        maxLength: button.maxLength,
      },
    ];
  });
}

/**
 * The builder's fields for a template, in the order WhatsApp shows them: header, body, buttons.
 *
 * @example
 * needsOf({ sendable: true, header: { type: 'IMAGE' }, body: { format: 'POSITIONAL', count: 1 }, buttons: [{ index: 0, type: 'URL', dynamic: true }] }).map((need) => need.key);
 * // ['header', 'body-1', 'button-0']
 */
export function needsOf(parameters: TemplateRequirements): Need[] {
  const body: Need[] =
    parameters.body.format === 'POSITIONAL'
      ? Array.from({ length: parameters.body.count }, (_, offset) => ({
          key: `body-${offset + 1}`,
          label: `Body {{${offset + 1}}}`,
          place: { in: 'body', position: offset + 1 },
          optional: false,
        }))
      : parameters.body.names.map((name) => ({ key: `body-${name}`, label: `Body {{${name}}}`, place: { in: 'body', name }, optional: false }));
  return [...headerNeed(parameters.header), ...body, ...buttonNeeds(parameters.buttons)];
}

/** What a send of the template needs, in words (the templates screen). */
export function needsText(parameters: TemplateRequirements): string {
  const needs = needsOf(parameters).map((need) => need.label.replace(/ \(https:\/\/\)$/, ''));
  const unsupported = unsupportedInBuilder(parameters);
  const parts = [needs.length === 0 ? 'no values' : needs.join(', ')];
  if (parameters.carousel) parts.push(`a carousel of ${parameters.carousel.cards} cards`);
  if (parameters.limitedTimeOffer) parts.push(parameters.limitedTimeOffer.hasExpiration ? 'an offer expiry' : 'a limited-time offer');
  if (!parameters.sendable && unsupported) parts.push(`not sendable: ${(parameters.unsupported ?? []).join('; ')}`);
  return parts.join('; ');
}

/** A value for the API: a literal, or `{ attribute, fallback? }` (an empty fallback is none: a member without the attribute is skipped). */
function valueOf(mapping: Mapping): unknown {
  if (mapping.source === 'literal') return mapping.value;
  return mapping.fallback.trim() === '' ? { attribute: mapping.attribute } : { attribute: mapping.attribute, fallback: mapping.fallback };
}

/** The button value's field: a tracked link's destination, a URL suffix, a coupon code, a payload. */
const buttonField = (place: Extract<NeedPlace, { in: 'button' }>): string =>
  place.tracked ? 'trackedUrl' : place.type === 'url' ? 'text' : place.type === 'copy_code' ? 'couponCode' : 'payload';

/**
 * A tracked link destination given as one text for everyone that is not an https address (the API
 * refuses it; an attribute's values are checked per member), or undefined.
 *
 * @example
 * badTrackedUrl(needs, { 'button-0': { source: 'literal', value: 'http://shop.example' } })?.label; // 'Button 1: tracked link destination (https://)'
 */
export function badTrackedUrl(needs: readonly Need[], mappings: Readonly<Record<string, Mapping>>): Need | undefined {
  return needs.find((need) => {
    const mapping = mappings[need.key];
    if (need.place.in !== 'button' || !need.place.tracked || mapping?.source !== 'literal' || mapping.value === '') return false;
    return !/^https:\/\/[^\s/]+/i.test(mapping.value) || mapping.value.length > MAX_TRACKED_URL_LENGTH;
  });
}

const isEmpty = (mapping: Mapping | undefined): boolean => !mapping || (mapping.source === 'literal' ? mapping.value === '' : mapping.attribute === '');

/** The first need left without a value (an optional one may stay empty), or undefined. */
export const missingNeed = (needs: readonly Need[], mappings: Readonly<Record<string, Mapping>>): Need | undefined =>
  needs.find((need) => !need.optional && isEmpty(mappings[need.key]));

/**
 * The campaign's values (`templateParams`, `header`, `buttons`) from the mappings, keyed by need.
 *
 * @example
 * campaignValuesOf(needsOf(parameters), { 'body-1': { source: 'attribute', attribute: 'first_name', fallback: 'there' } });
 * // { templateParams: [{ attribute: 'first_name', fallback: 'there' }] }
 */
export function campaignValuesOf(needs: readonly Need[], mappings: Readonly<Record<string, Mapping>>): CampaignValues {
  const positional: unknown[] = [];
  const named: Record<string, unknown> = {};
  let header: unknown;
  const buttons: unknown[] = [];
  for (const need of needs) {
    const mapping = mappings[need.key];
    if (!mapping || isEmpty(mapping)) continue;
    const value = valueOf(mapping);
    const place = need.place;
    if (place.in === 'body') {
      if ('position' in place) positional[place.position - 1] = value;
      else named[place.name] = value;
    } else if (place.in === 'header') header = place.type === 'text' ? { type: 'text', text: value } : { type: place.type, link: value };
    else buttons.push({ index: place.index, type: place.type, [buttonField(place)]: value });
  }
  const isNamed = needs.some((need) => need.place.in === 'body' && 'name' in need.place);
  return {
    ...(isNamed ? { templateParams: named } : positional.length > 0 ? { templateParams: positional } : {}),
    ...(header === undefined ? {} : { header }),
    ...(buttons.length > 0 ? { buttons } : {}),
  };
}

/** A template's label in lists: name (language). */
export const templateLabel = (template: Pick<TemplateView, 'name' | 'language'>): string => `${template.name} (${template.language})`;
