/**
 * Button components of a template send against the template's BUTTONS (template-components.md
 * §4): `sub_type` must match the button at `index` (a string or a number, Meta's examples use
 * both), dynamic buttons need their value, and each kind's parameter has its own shape and limits.
 */
import { invalidParameter, invalidTemplateParameter, templateFormatMismatch, templateParamCountMismatch, templateParameterMissing } from './graph-errors';
import { isRecord, oneOf, requireArray, requireRecord, requireString, type Json } from './message-fields';
import { parametersOf } from './template-send-parse';
import type { ButtonSpec } from './template-send-spec';

/** A request component (or parameter) with its parameter path, for error messages. */
export interface Located {
  value: Json;
  path: string;
}

const SUB_TYPES = ['url', 'quick_reply', 'copy_code', 'flow', 'catalog', 'mpm'] as const;
type SubType = (typeof SUB_TYPES)[number];

/** The template button types each sub_type fills (OTP buttons are sent as `url`). */
const FILLS: Record<SubType, readonly string[]> = {
  url: ['URL', 'OTP'],
  quick_reply: ['QUICK_REPLY'],
  copy_code: ['COPY_CODE'],
  flow: ['FLOW'],
  catalog: ['CATALOG'],
  mpm: ['MPM'],
};

/** Meta's spelling of button types in details: `Button at index 0 of type Url`. */
const TYPE_NAMES: Record<string, string> = {
  URL: 'Url',
  OTP: 'Url',
  COPY_CODE: 'CopyCode',
  QUICK_REPLY: 'QuickReply',
  FLOW: 'Flow',
  CATALOG: 'Catalog',
  MPM: 'Mpm',
};
const typeName = (type: string): string => TYPE_NAMES[type] ?? type;

const MAX_URL = 2000;
const MAX_COUPON = 20;
/** The offer code of a limited-time offer (Meta's LTO page). */
const MAX_OFFER_CODE = 15;
const MAX_OTP = 15;
const MAX_MPM_SECTIONS = 10;
const MAX_MPM_PRODUCTS = 30;
const MAX_SECTION_TITLE = 24;

export interface ButtonContext {
  /** `buttons`, or a carousel card's `cards[1].buttons`. */
  label: string;
  /** LTO templates cap the offer code at 15 characters instead of 20. */
  limitedTimeOffer: boolean;
}

function buttonIndex(component: Json, path: string): number {
  const raw = component.index;
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 0) throw invalidParameter(`Param ${path}['index'] must be a button position (0, 1, …) as a number or a string.`);
  return value;
}

/** The one parameter of a button, or none; more than one is a count mismatch. */
function singleParameter(button: Located, context: ButtonContext, allowed: number): Located | undefined {
  const parameters = parametersOf(button.value, button.path);
  if (parameters.length > allowed) throw templateParamCountMismatch(context.label, parameters.length, allowed);
  const first = parameters[0];
  return isRecord(first) ? { value: first, path: `${button.path}['parameters'][0]` } : undefined;
}

function parameterType(parameter: Located, expected: string, context: ButtonContext): void {
  const got = typeof parameter.value.type === 'string' ? parameter.value.type : '';
  if (got.toLowerCase() !== expected)
    throw templateFormatMismatch(`${context.label}: Format mismatch, expected ${expected.toUpperCase()}, received ${got.toUpperCase() || 'UNKNOWN'}`);
}

function requiresParameter(spec: ButtonSpec, context: ButtonContext): never {
  throw templateParameterMissing(`${context.label}: Button at index ${spec.index} of type ${typeName(spec.type)} requires a parameter`);
}

function checkUrl(spec: ButtonSpec, button: Located, context: ButtonContext): void {
  const parameter = singleParameter(button, context, spec.dynamic ? 1 : 0);
  if (!spec.dynamic) return;
  if (parameter === undefined) requiresParameter(spec, context);
  parameterType(parameter, 'text', context);
  const text = requireString(parameter.value, 'text', `${parameter.path}['text']`);
  if (spec.type === 'OTP' && text.length > MAX_OTP)
    throw invalidTemplateParameter(`${context.label}: the code of the button at index ${spec.index} is ${text.length} characters; the limit is ${MAX_OTP}`);
  const url = (spec.url ?? '').replace(/\{\{\s*[A-Za-z0-9_]+\s*\}\}/, text);
  if (url.length > MAX_URL)
    throw invalidTemplateParameter(
      `${context.label}: the URL of the button at index ${spec.index} is ${url.length} characters after substitution; the limit is ${MAX_URL}`,
    );
}

function checkQuickReply(button: Located, context: ButtonContext): void {
  const parameter = singleParameter(button, context, 1);
  if (parameter === undefined) return;
  if (parameter.value.type !== 'payload') oneOf(`${parameter.path}['type']`, ['payload'], parameter.value.type);
  requireString(parameter.value, 'payload', `${parameter.path}['payload']`);
}

function checkCopyCode(spec: ButtonSpec, button: Located, context: ButtonContext): void {
  const parameter = singleParameter(button, context, 1);
  if (parameter === undefined) requiresParameter(spec, context);
  parameterType(parameter, 'coupon_code', context);
  const code = parameter.value.coupon_code;
  if (code === undefined || code === null || code === '') requiresParameter(spec, context);
  if (typeof code !== 'string') throw invalidParameter(`Param ${parameter.path}['coupon_code'] must be a string.`);
  const limit = context.limitedTimeOffer ? MAX_OFFER_CODE : MAX_COUPON;
  if (code.length > limit)
    throw invalidTemplateParameter(
      `${context.label}: the coupon code of the button at index ${spec.index} is ${code.length} characters; the limit is ${limit}`,
    );
}

/** `{ type: 'action', action: {...} }`, the parameter of flow, catalog and MPM buttons. */
function actionOf(button: Located, context: ButtonContext): Located | undefined {
  const parameter = singleParameter(button, context, 1);
  if (parameter === undefined) return undefined;
  parameterType(parameter, 'action', context);
  return { value: requireRecord(parameter.value, 'action', `${parameter.path}['action']`), path: `${parameter.path}['action']` };
}

function checkFlow(button: Located, context: ButtonContext): void {
  const action = actionOf(button, context);
  if (action === undefined) return;
  if (action.value.flow_token !== undefined && typeof action.value.flow_token !== 'string')
    throw invalidParameter(`Param ${action.path}['flow_token'] must be a string.`);
  if (action.value.flow_action_data !== undefined && !isRecord(action.value.flow_action_data))
    throw invalidParameter(`Param ${action.path}['flow_action_data'] must be a JSON object.`);
}

function checkCatalog(button: Located, context: ButtonContext): void {
  const action = actionOf(button, context);
  if (action !== undefined && action.value.thumbnail_product_retailer_id !== undefined) {
    requireString(action.value, 'thumbnail_product_retailer_id', `${action.path}['thumbnail_product_retailer_id']`);
  }
}

function checkMpm(spec: ButtonSpec, button: Located, context: ButtonContext): void {
  const action = actionOf(button, context);
  if (action === undefined) requiresParameter(spec, context);
  requireString(action.value, 'thumbnail_product_retailer_id', `${action.path}['thumbnail_product_retailer_id']`);
  const sections = requireArray(action.value, 'sections', `${action.path}['sections']`, 1, MAX_MPM_SECTIONS);
  let products = 0;
  sections.forEach((section, index) => {
    const path = `${action.path}['sections'][${index}]`;
    if (!isRecord(section)) throw invalidParameter(`Param ${path} must be a JSON object.`);
    const title = requireString(section, 'title', `${path}['title']`);
    if (title.length > MAX_SECTION_TITLE) throw invalidParameter(`Param ${path}['title'] must be at most ${MAX_SECTION_TITLE} characters long.`);
    const items = requireArray(section, 'product_items', `${path}['product_items']`, 1, MAX_MPM_PRODUCTS);
    items.forEach((item, itemIndex) => {
      if (!isRecord(item)) throw invalidParameter(`Param ${path}['product_items'][${itemIndex}] must be a JSON object.`);
      requireString(item, 'product_retailer_id', `${path}['product_items'][${itemIndex}]['product_retailer_id']`);
    });
    products += items.length;
  });
  if (products > MAX_MPM_PRODUCTS) throw invalidParameter(`Param ${action.path}['sections'] may list at most ${MAX_MPM_PRODUCTS} products in total.`);
}

function checkButton(spec: ButtonSpec, subType: SubType, button: Located, context: ButtonContext): void {
  if (subType === 'url') checkUrl(spec, button, context);
  else if (subType === 'quick_reply') checkQuickReply(button, context);
  else if (subType === 'copy_code') checkCopyCode(spec, button, context);
  else if (subType === 'flow') checkFlow(button, context);
  else if (subType === 'catalog') checkCatalog(button, context);
  else checkMpm(spec, button, context);
}

/**
 * The send's button components against the template's buttons; then every button that needs a
 * value and got none is reported (131008), lowest index first.
 *
 * @example
 * checkButtons([{ index: 0, type: 'COPY_CODE', dynamic: true }], [], { label: 'buttons', limitedTimeOffer: false });
 * // throws 131008 "buttons: Button at index 0 of type CopyCode requires a parameter"
 */
export function checkButtons(specs: readonly ButtonSpec[], buttons: readonly Located[], context: ButtonContext): void {
  const filled = new Set<number>();
  for (const button of buttons) {
    const raw = requireString(button.value, 'sub_type', `${button.path}['sub_type']`);
    const subType = raw.toLowerCase() as SubType;
    if (!(SUB_TYPES as readonly string[]).includes(subType)) oneOf(`${button.path}['sub_type']`, SUB_TYPES, raw);
    const index = buttonIndex(button.value, button.path);
    if (filled.has(index)) throw invalidTemplateParameter(`${context.label}: more than one component for the button at index ${index}`);
    filled.add(index);
    const spec = specs[index];
    if (spec === undefined) throw invalidTemplateParameter(`${context.label}: the template has no button at index ${index} (it has ${specs.length})`);
    if (!FILLS[subType].includes(spec.type)) {
      throw templateFormatMismatch(`${context.label}: Button at index ${index} is of type ${typeName(spec.type)}; received a ${subType} parameter`);
    }
    checkButton(spec, subType, button, context);
  }
  const missing = specs.find((spec) => spec.dynamic && !filled.has(spec.index));
  if (missing !== undefined) requiresParameter(missing, context);
}
