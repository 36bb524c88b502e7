/**
 * What a stored template asks of a send, read from its components in Meta's GET shape
 * (`template-components.md` §7): the header's format and variable, the body's variables
 * (positional count or names), each button's type and whether it needs a value, the
 * limited-time offer's expiration and the carousel's cards. Types are compared case-insensitively
 * because templates registered in code or created through Graph may spell them either way.
 *
 * Computed per send from the components and the template's parameter format, so an edit (which
 * may change both) is seen by the next send.
 */
import { templateParamCountMismatch } from './graph-errors';

export type ParameterFormat = 'POSITIONAL' | 'NAMED';

export interface HeaderSpec {
  /** TEXT, IMAGE, VIDEO, DOCUMENT, LOCATION, GIF or PRODUCT. */
  format: string;
  text?: string;
  /** Distinct placeholders of a TEXT header (`1`, or a name). */
  variables: string[];
}

export interface BodySpec {
  text: string;
  /** Distinct placeholders in order of first appearance (`1`, `2` or names). */
  variables: string[];
}

export interface ButtonSpec {
  index: number;
  /** Meta's button type, upper case: URL, QUICK_REPLY, COPY_CODE, FLOW, CATALOG, MPM, OTP, PHONE_NUMBER… */
  type: string;
  url?: string;
  /** A send must give this button a value (URL with a variable, COPY_CODE, OTP, MPM). */
  dynamic: boolean;
}

export interface CardSpec {
  header?: HeaderSpec;
  body?: BodySpec;
  buttons: ButtonSpec[];
}

export interface TemplateSendSpec {
  format: ParameterFormat;
  header?: HeaderSpec;
  body: BodySpec;
  buttons: ButtonSpec[];
  limitedTimeOffer?: { hasExpiration: boolean };
  cards?: CardSpec[];
}

type Component = Record<string, unknown>;

/** The parts of a stored template this module reads (sandbox-state's StoredTemplate fits). */
export interface TemplateDefinition {
  template: { components: readonly Component[]; category: string };
  info: { parameterFormat?: ParameterFormat };
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** Distinct placeholders in order of first appearance. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? ''))];
}

/**
 * Positional `{{1}}` and named `{{first_name}}` placeholders; a repeated one counts once.
 *
 * @example
 * countPlaceholders('Hi {{1}}, order {{2}} for {{1}}'); // 2
 */
export function countPlaceholders(text: string): number {
  return placeholdersOf(text).length;
}

const upper = (value: unknown): string => (typeof value === 'string' ? value.toUpperCase() : '');
const textOf = (component: Component): string => (typeof component.text === 'string' ? component.text : '');

/** NAMED when set so at creation or registration, else read from the placeholders as Meta echoes it. */
export function parameterFormatOf(stored: TemplateDefinition): ParameterFormat {
  if (stored.info.parameterFormat !== undefined) return stored.info.parameterFormat;
  const positional = stored.template.components.every((component) => typeof component.text !== 'string' || !/\{\{\s*[A-Za-z_]/.test(component.text));
  return positional ? 'POSITIONAL' : 'NAMED';
}

function headerSpec(component: Component): HeaderSpec {
  const format = upper(component.format) || 'TEXT';
  if (format !== 'TEXT') return { format, variables: [] };
  return { format, text: textOf(component), variables: placeholdersOf(textOf(component)) };
}

function buttonSpecs(component: Component): ButtonSpec[] {
  const buttons = Array.isArray(component.buttons) ? component.buttons : [];
  return buttons.map((raw, index) => {
    const button = typeof raw === 'object' && raw !== null ? (raw as Component) : {};
    const type = upper(button.type);
    const url = typeof button.url === 'string' ? button.url : undefined;
    const dynamic = (type === 'URL' && url !== undefined && /\{\{/.test(url)) || type === 'COPY_CODE' || type === 'OTP' || type === 'MPM';
    return { index, type, ...(url === undefined ? {} : { url }), dynamic };
  });
}

/** Header, body and buttons of a component list: the template's own, or one carousel card's. */
function partsOf(components: readonly Component[]): CardSpec {
  const card: CardSpec = { buttons: [] };
  for (const component of components) {
    const kind = upper(component.type);
    if (kind === 'HEADER') card.header = headerSpec(component);
    else if (kind === 'BODY') card.body = { text: textOf(component), variables: placeholdersOf(textOf(component)) };
    else if (kind === 'BUTTONS') card.buttons = buttonSpecs(component);
  }
  return card;
}

function cardsOf(component: Component): CardSpec[] {
  const cards = Array.isArray(component.cards) ? component.cards : [];
  return cards.map((card) => {
    const components =
      typeof card === 'object' && card !== null && Array.isArray((card as Component).components) ? ((card as Component).components as Component[]) : [];
    return partsOf(components.filter((entry) => typeof entry === 'object' && entry !== null));
  });
}

/**
 * What a send of this template must carry.
 *
 * @example
 * templateSendSpec([{ type: 'BODY', text: 'Hi {{1}}' }], 'POSITIONAL', 'UTILITY').body.variables; // ['1']
 */
export function templateSendSpec(components: readonly Component[], format: ParameterFormat, category: string): TemplateSendSpec {
  const parts = partsOf(components);
  // Authentication bodies are Meta's fixed text around one value: the code.
  const body = parts.body ?? { text: '', variables: [] };
  const authBody = category === 'AUTHENTICATION' && body.variables.length === 0 ? { text: '{{1}}', variables: ['1'] } : body;
  const spec: TemplateSendSpec = { format, body: authBody, buttons: parts.buttons, ...(parts.header === undefined ? {} : { header: parts.header }) };
  for (const component of components) {
    const kind = upper(component.type);
    if (kind === 'LIMITED_TIME_OFFER') {
      const offer =
        typeof component.limited_time_offer === 'object' && component.limited_time_offer !== null ? (component.limited_time_offer as Component) : {};
      spec.limitedTimeOffer = { hasExpiration: offer.has_expiration === true };
    } else if (kind === 'CAROUSEL') spec.cards = cardsOf(component);
  }
  return spec;
}

/** The spec of a stored template, in its current format and category. */
export function sendSpecOf(stored: TemplateDefinition): TemplateSendSpec {
  return templateSendSpec(stored.template.components, parameterFormatOf(stored), stored.template.category);
}

export interface ExpectedTemplateParams {
  /** Only a TEXT header has placeholders to count; media headers are not checked. */
  header?: number;
  body: number;
}

/**
 * The parameter counts of a template's HEADER (text format) and BODY components.
 *
 * @example
 * expectedTemplateParams([{ type: 'BODY', text: '{{1}} {{2}}' }]); // { body: 2 }
 */
export function expectedTemplateParams(components: ReadonlyArray<Record<string, unknown>>): ExpectedTemplateParams {
  const expected: ExpectedTemplateParams = { body: 0 };
  for (const component of components) {
    const kind = upper(component.type);
    const format = upper(component.format) || 'TEXT';
    if (kind === 'BODY') expected.body += countPlaceholders(textOf(component));
    else if (kind === 'HEADER' && format === 'TEXT') expected.header = (expected.header ?? 0) + countPlaceholders(textOf(component));
  }
  return expected;
}

/**
 * The count check alone (132000), body first as Meta reports the body first.
 *
 * @example
 * checkTemplateParams({ body: 2 }, { headerParams: 0, bodyParams: 1 }); // throws 132000 "body: number of localizable_params (1) …"
 */
export function checkTemplateParams(expected: ExpectedTemplateParams, reference: { headerParams: number; bodyParams: number }): void {
  if (reference.bodyParams !== expected.body) throw templateParamCountMismatch('body', reference.bodyParams, expected.body);
  if (expected.header !== undefined && reference.headerParams !== expected.header) {
    throw templateParamCountMismatch('header', reference.headerParams, expected.header);
  }
}
