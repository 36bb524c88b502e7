/**
 * The shape of a send's `template` object, checked before the template is looked up (as Graph
 * refuses a malformed body before it reads the account): name, language, component kinds,
 * parameter objects, button `sub_type` and `index`. Everything that needs the template itself is
 * template-send-validation.ts's, after the lookup.
 */
import { invalidParameter, requiredParameter } from './graph-errors';
import { isRecord, MEDIA_TYPES, oneOf, requireRecord, requireString, validateMedia, type Json } from './message-fields';

/** Send-time component kinds (template-components.md §1), compared case-insensitively. */
export const SEND_COMPONENT_TYPES = ['header', 'body', 'button', 'limited_time_offer', 'carousel'] as const;
export type SendComponentType = (typeof SEND_COMPONENT_TYPES)[number];

export interface TemplateReference {
  name: string;
  languageCode: string;
  /** Parameters supplied per component; a component the request omits supplies 0. */
  headerParams: number;
  bodyParams: number;
  /** The request's top-level components, in order; compared with the template after the lookup. */
  components: Json[];
}

/** A component's `type`, lower case, one of the send-time kinds (100 otherwise). */
export function componentKind(component: Json, path: string): SendComponentType {
  const raw = requireString(component, 'type', `${path}['type']`);
  const kind = raw.toLowerCase();
  if (!(SEND_COMPONENT_TYPES as readonly string[]).includes(kind)) oneOf(`${path}['type']`, SEND_COMPONENT_TYPES, raw);
  return kind as SendComponentType;
}

/** A component's `parameters`, absent = none. */
export function parametersOf(component: Json, path: string): unknown[] {
  const parameters = component.parameters === undefined ? [] : component.parameters;
  if (!Array.isArray(parameters)) throw invalidParameter(`Param ${path}['parameters'] must be an array.`);
  return parameters;
}

function validateTemplateParameter(parameter: unknown, path: string): void {
  if (!isRecord(parameter)) throw invalidParameter(`Param ${path} must be a JSON object.`);
  const kind = requireString(parameter, 'type', `${path}['type']`);
  // Presence only: Meta's own quick-reply examples pass booleans as `text`.
  if (kind === 'text' && (parameter.text === undefined || parameter.text === null)) throw requiredParameter(`${path}['text']`);
  if (MEDIA_TYPES.has(kind)) validateMedia(requireRecord(parameter, kind, `${path}['${kind}']`), `${path}['${kind}']`);
}

/** One component's shape; returns its kind and parameter count. */
function parseComponent(component: unknown, path: string): { kind: SendComponentType; parameters: number } {
  if (!isRecord(component)) throw invalidParameter(`Param ${path} must be a JSON object.`);
  const kind = componentKind(component, path);
  const parameters = parametersOf(component, path);
  parameters.forEach((parameter, index) => validateTemplateParameter(parameter, `${path}['parameters'][${index}]`));
  if (kind === 'button') {
    requireString(component, 'sub_type', `${path}['sub_type']`);
    const buttonIndex = component.index;
    if (buttonIndex === undefined || buttonIndex === null || buttonIndex === '') throw requiredParameter(`${path}['index']`);
  }
  return { kind, parameters: parameters.length };
}

/**
 * `template` of a send: name, language code and the components' shapes.
 *
 * @example
 * parseTemplate({ name: 'order_update', language: { code: 'en_US' } }); // { name, languageCode: 'en_US', headerParams: 0, bodyParams: 0, components: [] }
 */
export function parseTemplate(template: Json): TemplateReference {
  const name = requireString(template, 'name', "template['name']");
  const language = requireRecord(template, 'language', "template['language']");
  const languageCode = requireString(language, 'code', "template['language']['code']");
  const reference: TemplateReference = { name, languageCode, headerParams: 0, bodyParams: 0, components: [] };
  if (template.components === undefined) return reference;
  if (!Array.isArray(template.components)) throw invalidParameter("Param template['components'] must be an array.");

  template.components.forEach((component, index) => {
    const { kind, parameters } = parseComponent(component, `template['components'][${index}]`);
    if (kind === 'header') reference.headerParams += parameters;
    else if (kind === 'body') reference.bodyParams += parameters;
    reference.components.push(component as Json);
  });
  return reference;
}
