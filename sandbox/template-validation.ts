/**
 * Checks Meta runs synchronously on `POST /{waba-id}/message_templates` and `POST
 * /{template-id}` before a template goes to review: name and language, the component set per
 * category, placeholders and their examples, and button limits. Review itself (content policy)
 * is what `POST /_sandbox/templates/{id}/status` stands in for.
 *
 * Errors are code 100 with the parameter path (`components[1]['buttons'][0]['url']`) so a client
 * sees which part of its payload is wrong.
 */
import { invalidParameter, requiredParameter } from './graph-errors';
import { isRecord, ParamReader, type Json } from './request-params';
import { TEMPLATE_CATEGORIES, type TemplateCategory } from './sandbox-types';
import { TEMPLATE_LANGUAGES } from './template-languages';

export type ParameterFormat = 'POSITIONAL' | 'NAMED';

const COMPONENT_TYPES = ['HEADER', 'BODY', 'FOOTER', 'BUTTONS', 'CAROUSEL', 'LIMITED_TIME_OFFER', 'CALL_PERMISSION_REQUEST'] as const;
const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION', 'PRODUCT'] as const;
const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'OTP', 'COPY_CODE', 'FLOW', 'MPM', 'CATALOG', 'VOICE_CALL', 'SPM', 'APP'] as const;
type ButtonType = (typeof BUTTON_TYPES)[number];
/** Meta's per-type button caps inside the overall limit of ten. */
const BUTTON_LIMITS: Partial<Record<ButtonType, number>> = { URL: 2, PHONE_NUMBER: 1, COPY_CODE: 1, OTP: 1, FLOW: 1, MPM: 1, CATALOG: 1, VOICE_CALL: 1 };
const MAX_BUTTONS = 10;
const MAX_BODY = 1024;
const MAX_HEADER_TEXT = 60;
const MAX_FOOTER = 60;
const MAX_BUTTON_TEXT = 25;

export const TEMPLATE_NAME = /^[a-z0-9_]+$/;

/** Meta's per-category ranges for `message_send_ttl_seconds`. */
const TTL_RANGES: Record<TemplateCategory, { min: number; max: number }> = {
  AUTHENTICATION: { min: 30, max: 900 },
  UTILITY: { min: 30, max: 43_200 },
  MARKETING: { min: 43_200, max: 2_592_000 },
};

export function templateName(params: ParamReader): string {
  return params.string('name', {
    maxLength: 512,
    pattern: TEMPLATE_NAME,
    patternHint: 'can only contain lowercase alphanumeric characters and underscores ( _ )',
  });
}

export function templateLanguage(params: ParamReader): string {
  const language = params.string('language');
  if (!TEMPLATE_LANGUAGES.has(language)) throw invalidParameter(`Param language ${JSON.stringify(language)} is not a supported template language.`);
  return language;
}

export function templateCategory(params: ParamReader): TemplateCategory {
  return params.enumValue('category', TEMPLATE_CATEGORIES, { caseInsensitive: true });
}

export function parameterFormat(params: ParamReader): ParameterFormat | undefined {
  return params.optionalEnum('parameter_format', ['POSITIONAL', 'NAMED'] as const, { caseInsensitive: true });
}

export function messageSendTtl(params: ParamReader, category: TemplateCategory): number | undefined {
  const range = TTL_RANGES[category];
  // -1 asks for Meta's default validity period.
  const ttl = params.optionalInteger('message_send_ttl_seconds');
  if (ttl === undefined || ttl === -1) return ttl;
  if (ttl < range.min || ttl > range.max) {
    throw invalidParameter(`Param message_send_ttl_seconds must be between ${range.min} and ${range.max} for ${category} templates.`);
  }
  return ttl;
}

interface Placeholders {
  positional: number[];
  named: string[];
}

function placeholdersIn(text: string, path: string): Placeholders {
  const positional: number[] = [];
  const named: string[] = [];
  for (const match of text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)) {
    const token = match[1] ?? '';
    if (/^\d+$/.test(token)) positional.push(Number(token));
    else if (/^[a-z_][a-z0-9_]*$/.test(token)) named.push(token);
    else throw invalidParameter(`Param ${path} has an invalid variable {{${token}}}; use {{1}}, {{2}}, ... or lowercase names such as {{first_name}}.`);
  }
  return { positional, named };
}

/**
 * Positional variables must run 1..n without gaps (Meta rejects "{{1}} ... {{3}}"); named ones
 * need `parameter_format: NAMED`; the two never mix.
 */
function checkPlaceholders(found: Placeholders, format: ParameterFormat, path: string): number {
  if (found.positional.length > 0 && found.named.length > 0) throw invalidParameter(`Param ${path} mixes numbered and named variables.`);
  if (found.named.length > 0) {
    if (format !== 'NAMED') throw invalidParameter(`Param ${path} uses named variables; set parameter_format to NAMED.`);
    return new Set(found.named).size;
  }
  if (found.positional.length > 0 && format === 'NAMED') throw invalidParameter(`Param ${path} uses numbered variables but parameter_format is NAMED.`);
  const distinct = [...new Set(found.positional)].sort((a, b) => a - b);
  distinct.forEach((value, index) => {
    if (value !== index + 1) throw invalidParameter(`Param ${path} variables must be numbered sequentially from {{1}}; found {{${value}}}.`);
  });
  return distinct.length;
}

interface ComponentCheck {
  category: TemplateCategory;
  format: ParameterFormat;
  /** Flow ids and names of the WABA, for FLOW buttons. */
  flowExists: (reference: { id?: string; name?: string }) => boolean;
}

/** Validates `components` and returns a deep copy with `type` (and header `format`) upper-cased. */
export function templateComponents(params: ParamReader, check: ComponentCheck): Array<Record<string, unknown>> {
  const components = params.array('components', { min: 1, max: 7 });
  const seen = new Set<string>();
  const normalised = components.map((component, index) => {
    const path = `components[${index}]`;
    if (!isRecord(component)) throw invalidParameter(`Param ${path} must be a JSON object.`);
    const reader = ParamReader.of(component, path);
    const type = reader.enumValue('type', COMPONENT_TYPES, { caseInsensitive: true });
    if (seen.has(type)) throw invalidParameter(`Param components has more than one ${type} component.`);
    seen.add(type);
    const copy: Json = { ...structuredClone(component), type };
    switch (type) {
      case 'HEADER':
        checkHeader(reader, copy, check);
        break;
      case 'BODY':
        checkBody(reader, check);
        break;
      case 'FOOTER':
        checkFooter(reader, check);
        break;
      case 'BUTTONS':
        copy.buttons = checkButtons(reader, check);
        break;
      case 'CAROUSEL':
        reader.array('cards', { min: 1, max: 10 }).forEach((card, cardIndex) => {
          if (!isRecord(card)) throw invalidParameter(`Param ${reader.path('cards')}[${cardIndex}] must be a JSON object.`);
          ParamReader.of(card, `${reader.path('cards')}[${cardIndex}]`).array('components', { min: 1 });
        });
        break;
      case 'LIMITED_TIME_OFFER': {
        const offer = reader.record('limited_time_offer');
        offer.string('text', { maxLength: 16 });
        offer.optionalBoolean('has_expiration');
        break;
      }
      default:
        break;
    }
    return copy;
  });
  if (!seen.has('BODY')) throw requiredParameter("components['BODY']");
  const hasOtp = normalised.some(
    (component) =>
      component.type === 'BUTTONS' && Array.isArray(component.buttons) && component.buttons.some((button) => isRecord(button) && button.type === 'OTP'),
  );
  if (check.category === 'AUTHENTICATION' && !hasOtp) throw invalidParameter('AUTHENTICATION templates need a BUTTONS component with an OTP button.');
  if (check.category !== 'AUTHENTICATION' && hasOtp) throw invalidParameter('OTP buttons are only allowed in AUTHENTICATION templates.');
  return normalised;
}

function checkHeader(reader: ParamReader, copy: Json, check: ComponentCheck): void {
  const format = reader.enumValue('format', HEADER_FORMATS, { caseInsensitive: true });
  copy.format = format;
  const example = reader.optionalRecord('example');
  if (format === 'TEXT') {
    const text = reader.string('text', { maxLength: MAX_HEADER_TEXT });
    const count = checkPlaceholders(placeholdersIn(text, reader.path('text')), check.format, reader.path('text'));
    if (count > 1) throw invalidParameter(`Param ${reader.path('text')} may have at most one variable.`);
    if (count === 1) {
      const key = check.format === 'NAMED' ? 'header_text_named_params' : 'header_text';
      if (example === undefined || !example.has(key))
        throw invalidParameter(`Param ${reader.path('example')}['${key}'] is required when the header has a variable.`);
      example.array(key, { min: 1, max: 1 });
    }
  } else if (format === 'IMAGE' || format === 'VIDEO' || format === 'DOCUMENT') {
    // Media headers are reviewed with a sample file, uploaded beforehand (Resumable Upload API).
    if (example === undefined) throw invalidParameter(`Param ${reader.path('example')}['header_handle'] is required for ${format} headers.`);
    example.array('header_handle', { min: 1 });
  }
}

function checkBody(reader: ParamReader, check: ComponentCheck): void {
  if (check.category === 'AUTHENTICATION') {
    // Authentication bodies are Meta's fixed text; only the security line is configurable.
    if (reader.has('text')) throw invalidParameter(`Param ${reader.path('text')} is not allowed in AUTHENTICATION templates; Meta provides the body text.`);
    reader.optionalBoolean('add_security_recommendation');
    return;
  }
  const text = reader.string('text', { maxLength: MAX_BODY });
  const count = checkPlaceholders(placeholdersIn(text, reader.path('text')), check.format, reader.path('text'));
  if (count === 0) return;
  const example = reader.optionalRecord('example');
  if (check.format === 'NAMED') {
    const named = example?.optionalArray('body_text_named_params', { min: count });
    if (named === undefined) throw invalidParameter(`Param ${reader.path('example')}['body_text_named_params'] is required when the body has variables.`);
    return;
  }
  const rows = example?.optionalArray('body_text', { min: 1 });
  if (rows === undefined) throw invalidParameter(`Param ${reader.path('example')}['body_text'] is required when the body has variables.`);
  const first = rows[0];
  if (!Array.isArray(first) || first.length !== count) {
    throw invalidParameter(`Param ${reader.path('example')}['body_text'][0] must give ${count} example values, one per variable.`);
  }
}

function checkFooter(reader: ParamReader, check: ComponentCheck): void {
  if (check.category === 'AUTHENTICATION') {
    reader.optionalInteger('code_expiration_minutes', { min: 1, max: 90 });
    return;
  }
  const text = reader.string('text', { maxLength: MAX_FOOTER });
  if (/\{\{/.test(text)) throw invalidParameter(`Param ${reader.path('text')} cannot contain variables.`);
}

function checkButtons(reader: ParamReader, check: ComponentCheck): Json[] {
  const buttons = reader.array('buttons', { min: 1, max: MAX_BUTTONS });
  const counts = new Map<ButtonType, number>();
  return buttons.map((button, index) => {
    const path = `${reader.path('buttons')}[${index}]`;
    if (!isRecord(button)) throw invalidParameter(`Param ${path} must be a JSON object.`);
    const fields = ParamReader.of(button, path);
    const type = fields.enumValue('type', BUTTON_TYPES, { caseInsensitive: true });
    const count = (counts.get(type) ?? 0) + 1;
    counts.set(type, count);
    const limit = BUTTON_LIMITS[type];
    if (limit !== undefined && count > limit)
      throw invalidParameter(`Param ${reader.path('buttons')} may have at most ${limit} ${type} button${limit === 1 ? '' : 's'}.`);

    const textRequired = type !== 'OTP' && type !== 'COPY_CODE';
    if (textRequired) fields.string('text', { maxLength: MAX_BUTTON_TEXT });
    else fields.optionalString('text', { maxLength: MAX_BUTTON_TEXT });
    switch (type) {
      case 'URL': {
        const url = fields.string('url', { maxLength: 2000, pattern: /^https?:\/\//i, patternHint: 'must start with http:// or https://' });
        const variables = placeholdersIn(url, fields.path('url'));
        if (variables.positional.length + variables.named.length > 1 || (variables.positional.length === 1 && !/\{\{\s*1\s*\}\}$/.test(url))) {
          throw invalidParameter(`Param ${fields.path('url')} may only have one variable, {{1}}, at the end.`);
        }
        if (variables.positional.length === 1) fields.array('example', { min: 1 });
        break;
      }
      case 'PHONE_NUMBER':
        fields.string('phone_number', { maxLength: 20, pattern: /^\+?\d{3,20}$/, patternHint: 'must be a phone number' });
        break;
      case 'OTP': {
        const otpType = fields.enumValue('otp_type', ['COPY_CODE', 'ONE_TAP', 'ZERO_TAP'] as const, { caseInsensitive: true });
        if (otpType !== 'COPY_CODE' && !fields.has('supported_apps')) {
          fields.string('package_name');
          fields.string('signature_hash');
        }
        break;
      }
      case 'COPY_CODE':
        fields.string('example', { maxLength: 15 });
        break;
      case 'FLOW': {
        const id = fields.optionalString('flow_id');
        const name = fields.optionalString('flow_name');
        const json = fields.optionalString('flow_json');
        if (id === undefined && name === undefined && json === undefined) throw requiredParameter(`${path}['flow_id']`);
        if ([id, name, json].filter((value) => value !== undefined).length > 1)
          throw invalidParameter(`Param ${path} takes only one of flow_id, flow_name, flow_json.`);
        if ((id !== undefined || name !== undefined) && !check.flowExists({ ...(id === undefined ? {} : { id }), ...(name === undefined ? {} : { name }) })) {
          throw invalidParameter(`Param ${path}['${id === undefined ? 'flow_name' : 'flow_id'}'] does not name a flow of this WhatsApp Business Account.`);
        }
        if (json !== undefined) {
          try {
            JSON.parse(json);
          } catch {
            throw invalidParameter(`Param ${path}['flow_json'] must be valid JSON.`);
          }
        }
        fields.optionalEnum('flow_action', ['navigate', 'data_exchange'] as const);
        break;
      }
      default:
        break;
    }
    return { ...structuredClone(button), type };
  });
}
