/**
 * A template send against the stored template, the checks Meta runs once it has found the
 * template (template-components.md §2–§7, §9): header of the template's format, body parameters
 * by position or by name, buttons (template-send-buttons.ts), the limited-time offer and the
 * carousel's cards. Which code each rule answers is listed in sandbox/README.md.
 *
 * The body is checked first, then the header, buttons, offer and carousel, so the body count
 * mismatch clients meet most often is the one reported when several things are wrong.
 */
import {
  carouselCardCountMismatch,
  invalidParameter,
  invalidTemplateParameter,
  templateFormatMismatch,
  templateParamCountMismatch,
  templateParameterMissing,
  templateTextTooLong,
} from './graph-errors';
import { isRecord, oneOf, requireRecord, requireString, validateLocation, type Json } from './message-fields';
import { checkButtons, type Located } from './template-send-buttons';
import { componentKind, parametersOf, type TemplateReference } from './template-send-parse';
import type { BodySpec, CardSpec, HeaderSpec, ParameterFormat, TemplateSendSpec } from './template-send-spec';

const MAX_HEADER_TEXT = 60;
const MEDIA_FORMATS: ReadonlySet<string> = new Set(['IMAGE', 'VIDEO', 'DOCUMENT', 'GIF']);
const BODY_PARAMETER_TYPES = ['text', 'currency', 'date_time'] as const;

/** The request's components grouped by kind, parameters flattened in order. */
interface Grouped {
  header: Located[];
  body: Located[];
  buttons: Located[];
  offers: Located[];
  carousels: Located[];
}

function group(components: readonly Located[], allowed: readonly string[]): Grouped {
  const grouped: Grouped = { header: [], body: [], buttons: [], offers: [], carousels: [] };
  for (const component of components) {
    const kind = componentKind(component.value, component.path);
    if (!allowed.includes(kind)) oneOf(`${component.path}['type']`, allowed, component.value.type);
    const parameters = () =>
      parametersOf(component.value, component.path).map((value, index) => {
        const path = `${component.path}['parameters'][${index}]`;
        if (!isRecord(value)) throw invalidParameter(`Param ${path} must be a JSON object.`);
        return { value, path };
      });
    if (kind === 'header') grouped.header.push(...parameters());
    else if (kind === 'body') grouped.body.push(...parameters());
    else if (kind === 'button') grouped.buttons.push(component);
    else if (kind === 'limited_time_offer') grouped.offers.push(component);
    else grouped.carousels.push(component);
  }
  return grouped;
}

const typeOf = (parameter: Located): string => (typeof parameter.value.type === 'string' ? parameter.value.type.toUpperCase() : 'UNKNOWN');

function checkBodyParameter(parameter: Located, label: string): void {
  const type = typeOf(parameter).toLowerCase();
  if (!(BODY_PARAMETER_TYPES as readonly string[]).includes(type))
    throw templateFormatMismatch(`${label}: Format mismatch, expected TEXT, received ${typeOf(parameter)}`);
  if (type === 'text') {
    if (typeof parameter.value.text !== 'string') throw invalidParameter(`Param ${parameter.path}['text'] must be a string.`);
    return;
  }
  const value = requireRecord(parameter.value, type, `${parameter.path}['${type}']`);
  requireString(value, 'fallback_value', `${parameter.path}['${type}']['fallback_value']`);
  if (type === 'currency') {
    const code = requireString(value, 'code', `${parameter.path}['currency']['code']`);
    if (!/^[A-Z]{3}$/.test(code)) throw invalidParameter(`Param ${parameter.path}['currency']['code'] must be an ISO 4217 currency code.`);
    if (!Number.isSafeInteger(value.amount_1000))
      throw invalidParameter(`Param ${parameter.path}['currency']['amount_1000'] must be an integer (the amount x 1000).`);
  }
}

/** NAMED bodies: every parameter names a variable of the template, and every variable is named. */
function checkNamedParameters(variables: readonly string[], parameters: readonly Located[], label: string): void {
  const given = new Set<string>();
  for (const parameter of parameters) {
    const name = parameter.value.parameter_name;
    if (typeof name !== 'string' || name === '')
      throw invalidTemplateParameter(`${label}: parameter ${parameters.indexOf(parameter) + 1} has no parameter_name; the template uses named parameters`);
    if (!variables.includes(name)) throw invalidTemplateParameter(`${label}: Parameter name ${name} is not a parameter of the template`);
    if (given.has(name)) throw invalidTemplateParameter(`${label}: Parameter name ${name} is given more than once`);
    given.add(name);
  }
  const missing = variables.find((name) => !given.has(name));
  if (missing !== undefined) throw templateParameterMissing(`${label}: Parameter name ${missing} is missing`);
}

function checkBody(spec: BodySpec | undefined, parameters: readonly Located[], format: ParameterFormat, label: string): void {
  const variables = spec?.variables ?? [];
  parameters.forEach((parameter) => checkBodyParameter(parameter, label));
  if (format === 'NAMED' && variables.length > 0) return checkNamedParameters(variables, parameters, label);
  if (parameters.length !== variables.length) throw templateParamCountMismatch(label, parameters.length, variables.length);
}

function checkMediaParameter(parameter: Located, format: string): void {
  const key = format.toLowerCase();
  const path = `${parameter.path}['${key}']`;
  const media = requireRecord(parameter.value, key, path);
  const hasId = typeof media.id === 'string' && media.id !== '';
  const hasLink = typeof media.link === 'string' && media.link !== '';
  if (hasId === hasLink) throw invalidParameter(`Param ${path} must contain exactly one of 'id' or 'link'.`);
  if (hasLink && !/^https:\/\/[^\s/]+/i.test(media.link as string)) throw invalidParameter(`Param ${path}['link'] must be an https URL.`);
  if (media.filename !== undefined) {
    if (format !== 'DOCUMENT') throw invalidParameter(`Param ${path}['filename'] is only allowed on document parameters.`);
    if (typeof media.filename !== 'string') throw invalidParameter(`Param ${path}['filename'] must be a string.`);
  }
}

function checkTextHeader(spec: HeaderSpec, parameters: readonly Located[], label: string): void {
  const parameter = parameters[0];
  if (parameter === undefined || parameters.length !== spec.variables.length) throw templateParamCountMismatch(label, parameters.length, spec.variables.length);
  if (typeOf(parameter) !== 'TEXT') throw templateFormatMismatch(`${label}: Format mismatch, expected TEXT, received ${typeOf(parameter)}`);
  const text = parameter.value.text;
  if (typeof text !== 'string') throw invalidParameter(`Param ${parameter.path}['text'] must be a string.`);
  const name = parameter.value.parameter_name;
  // parameter_name on a header is optional (Meta documents it for bodies); given, it must match.
  if (name !== undefined && name !== spec.variables[0])
    throw invalidTemplateParameter(`${label}: Parameter name ${String(name)} is not a parameter of the template`);
  const hydrated = (spec.text ?? '').replace(/\{\{\s*[A-Za-z0-9_]+\s*\}\}/g, text).length;
  if (hydrated > MAX_HEADER_TEXT)
    throw templateTextTooLong(`${label}: the header text is ${hydrated} characters once its parameter is substituted; the limit is ${MAX_HEADER_TEXT}`);
}

function checkHeader(spec: HeaderSpec | undefined, parameters: readonly Located[], label: string): void {
  if (spec?.format === 'PRODUCT') return;
  if (spec === undefined || (spec.format === 'TEXT' && spec.variables.length === 0)) {
    if (parameters.length > 0) throw templateParamCountMismatch(label, parameters.length, 0);
    return;
  }
  if (spec.format === 'TEXT') return checkTextHeader(spec, parameters, label);
  const parameter = parameters[0];
  if (parameter === undefined) throw templateFormatMismatch(`${label}: Format mismatch, expected ${spec.format}, received UNKNOWN`);
  if (parameters.length > 1) throw templateParamCountMismatch(label, parameters.length, 1);
  if (typeOf(parameter) !== spec.format) throw templateFormatMismatch(`${label}: Format mismatch, expected ${spec.format}, received ${typeOf(parameter)}`);
  if (MEDIA_FORMATS.has(spec.format)) return checkMediaParameter(parameter, spec.format);
  if (spec.format === 'LOCATION')
    validateLocation(requireRecord(parameter.value, 'location', `${parameter.path}['location']`), `${parameter.path}['location']`);
}

function checkOffer(spec: TemplateSendSpec['limitedTimeOffer'], offers: readonly Located[]): void {
  if (offers.length > 0 && spec === undefined) throw invalidTemplateParameter('limited_time_offer: the template has no LIMITED_TIME_OFFER component');
  let expiration = false;
  for (const offer of offers) {
    const parameters = parametersOf(offer.value, offer.path);
    if (parameters.length > 1) throw templateParamCountMismatch('limited_time_offer', parameters.length, 1);
    const parameter = parameters[0];
    if (parameter === undefined) continue;
    const path = `${offer.path}['parameters'][0]`;
    if (!isRecord(parameter)) throw invalidParameter(`Param ${path} must be a JSON object.`);
    if (parameter.type !== 'limited_time_offer') oneOf(`${path}['type']`, ['limited_time_offer'], parameter.type);
    const value = requireRecord(parameter, 'limited_time_offer', `${path}['limited_time_offer']`);
    if (value.expiration_time_ms === undefined) continue;
    if (!Number.isSafeInteger(value.expiration_time_ms) || (value.expiration_time_ms as number) <= 0) {
      throw invalidParameter(`Param ${path}['limited_time_offer']['expiration_time_ms'] must be an integer (a Unix time in milliseconds).`);
    }
    expiration = true;
  }
  if (spec?.hasExpiration === true && !expiration) throw templateParameterMissing('limited_time_offer: Parameter expiration_time_ms is missing');
}

/** Header, body and buttons of the template itself or of one carousel card. */
function checkParts(spec: CardSpec, grouped: Grouped, format: ParameterFormat, prefix: string, limitedTimeOffer: boolean): void {
  checkBody(spec.body, grouped.body, format, `${prefix}body`);
  checkHeader(spec.header, grouped.header, `${prefix}header`);
  checkButtons(spec.buttons, grouped.buttons, { label: `${prefix}buttons`, limitedTimeOffer });
}

function cardIndex(card: Json, path: string, count: number): number {
  const raw = card.card_index;
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < 0 || value >= count) throw invalidParameter(`Param ${path}['card_index'] must be an integer from 0 to ${count - 1}.`);
  return value;
}

function checkCarousel(cards: readonly CardSpec[] | undefined, carousels: readonly Located[], format: ParameterFormat): void {
  const expected = cards?.length ?? 0;
  const carousel = carousels[0];
  if (carousels.length > 1) throw invalidTemplateParameter('carousel: a send has at most one carousel component');
  if (carousel === undefined || cards === undefined) {
    if (expected > 0 || carousel !== undefined)
      throw carouselCardCountMismatch(carousel === undefined ? 0 : Array.isArray(carousel.value.cards) ? carousel.value.cards.length : 0, expected);
    return;
  }
  const given = carousel.value.cards;
  if (!Array.isArray(given)) throw invalidParameter(`Param ${carousel.path}['cards'] must be an array.`);
  if (given.length !== expected) throw carouselCardCountMismatch(given.length, expected);
  const seen = new Set<number>();
  given.forEach((card, position) => {
    const path = `${carousel.path}['cards'][${position}]`;
    if (!isRecord(card)) throw invalidParameter(`Param ${path} must be a JSON object.`);
    const index = cardIndex(card, path, expected);
    if (seen.has(index)) throw invalidParameter(`Param ${path}['card_index'] repeats card ${index}.`);
    seen.add(index);
    const components = card.components === undefined ? [] : card.components;
    if (!Array.isArray(components)) throw invalidParameter(`Param ${path}['components'] must be an array.`);
    const located = components.map((value, at) => {
      if (!isRecord(value)) throw invalidParameter(`Param ${path}['components'][${at}] must be a JSON object.`);
      return { value, path: `${path}['components'][${at}]` };
    });
    checkParts(cards[index] ?? { buttons: [] }, group(located, ['header', 'body', 'button']), format, `cards[${index}].`, false);
  });
}

/**
 * The send's components (already shape-checked by template-send-parse.ts) against what the
 * template asks for; throws Meta's error for the first rule broken.
 *
 * @example
 * checkTemplateSend(templateSendSpec([{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Hi' }], 'POSITIONAL', 'UTILITY'), reference);
 * // without a header component: throws 132012 "header: Format mismatch, expected IMAGE, received UNKNOWN"
 */
export function checkTemplateSend(spec: TemplateSendSpec, reference: TemplateReference): void {
  const located = reference.components.map((value, index) => ({ value, path: `template['components'][${index}]` }));
  const grouped = group(located, ['header', 'body', 'button', 'limited_time_offer', 'carousel']);
  checkParts(spec, grouped, spec.format, '', spec.limitedTimeOffer !== undefined);
  checkOffer(spec.limitedTimeOffer, grouped.offers);
  checkCarousel(spec.cards, grouped.carousels, spec.format);
}
