/**
 * A campaign's template values and how each member's are filled (docs/CAMPAIGNS.md "Attribute
 * mapping"). Every value a broadcast takes (`templateParams` positional or named, `header`,
 * `buttons`, `carousel`, `limitedTimeOffer`) may be a literal, as in a broadcast, or a reference
 * `{ "attribute": "first_name", "fallback"?: "there" }` to the member's attribute of that name.
 *
 * A reference stands where the broadcast takes a string. The values are checked twice: at create,
 * with every reference replaced by its fallback (a reference without one is left to the member), and
 * per member once filled (the broadcast's own schemas, so the rules and messages are the same).
 */
import * as v from 'valibot';
import { ATTRIBUTE_NAME_PATTERN, type AudienceMember } from '../audiences/audience';
import { MAX_PARAMETER_LENGTH, templateParametersSchema, type TemplateContent, type TemplateParameters } from '../templates/template-content.schema';
import { templateContentSchema } from '../broadcast/template-broadcast.schema';

export const ATTRIBUTE_RULE = 'must be an attribute name: letters, digits and _ (1 to 64 characters)';

/** `{ attribute, fallback? }`: the member's attribute, else the fallback, else the member is skipped (MISSING_ATTRIBUTE). */
export const valueReferenceSchema = v.strictObject({
  attribute: v.pipe(v.string(), v.regex(ATTRIBUTE_NAME_PATTERN, ATTRIBUTE_RULE)),
  fallback: v.optional(
    v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(MAX_PARAMETER_LENGTH, `must be at most ${MAX_PARAMETER_LENGTH} characters`)),
  ),
});
export type ValueReference = v.InferOutput<typeof valueReferenceSchema>;

/** The values of a campaign as stored: the broadcast's fields, any string of which may be a reference. */
export interface CampaignValues {
  templateParams?: unknown[] | Record<string, unknown>;
  header?: unknown;
  buttons?: unknown[];
  carousel?: unknown[];
  limitedTimeOffer?: unknown;
}

/** Whether a JSON value is a reference (an object of `attribute` and an optional `fallback` only). */
export function isValueReference(value: unknown): value is ValueReference {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.includes('attribute') && keys.every((key) => key === 'attribute' || key === 'fallback') && v.is(valueReferenceSchema, value);
}

/** Every reference in the values, with its path (object keys and array indexes from the values' root). */
export function referencesOf(values: CampaignValues): Array<{ path: Array<string | number>; reference: ValueReference }> {
  const found: Array<{ path: Array<string | number>; reference: ValueReference }> = [];
  const walk = (value: unknown, path: Array<string | number>): void => {
    if (isValueReference(value)) found.push({ path, reference: value });
    else if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...path, index]));
    else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) walk(item, [...path, key]);
  };
  walk(values, []);
  return found;
}

/** The attribute's value as a template value: strings as they are, numbers and booleans written out; empty or absent: undefined. */
function attributeText(member: Pick<AudienceMember, 'attributes'>, name: string): string | undefined {
  const value = member.attributes[name];
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : String(value);
  return text.trim() === '' ? undefined : text;
}

/**
 * The values with every reference replaced: by `fill`, or left out when `fill` answers undefined (the
 * caller decides). `fill` also gets the reference's path (create's check picks a sample by the field).
 *
 * @example
 * substituteReferences({ templateParams: [{ attribute: 'city', fallback: 'Pune' }] }, (reference) => reference.fallback);
 * // { value: { templateParams: ['Pune'] } }
 */
export function substituteReferences<T>(
  value: T,
  fill: (reference: ValueReference, path: ReadonlyArray<string | number>) => string | undefined,
): { value: T; missing?: string } {
  let missing: string | undefined;
  const walk = (item: unknown, path: Array<string | number>): unknown => {
    if (isValueReference(item)) {
      const text = fill(item, path);
      if (text === undefined) missing ??= item.attribute;
      return text ?? '';
    }
    if (Array.isArray(item)) return item.map((inner, index) => walk(inner, [...path, index]));
    if (typeof item === 'object' && item !== null) return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, walk(inner, [...path, key])]));
    return item;
  };
  const substituted = walk(value, []) as T;
  return missing === undefined ? { value: substituted } : { value: substituted, missing };
}

/** What one member is sent, or why they are skipped. */
export type MemberSend =
  | { parameters: TemplateParameters; content?: TemplateContent }
  | { skipped: 'MISSING_ATTRIBUTE'; attribute: string }
  | { skipped: 'INVALID_PARAMETER'; field: string; rule: string };

const hasContent = (values: CampaignValues): boolean =>
  values.header !== undefined || values.buttons !== undefined || values.carousel !== undefined || values.limitedTimeOffer !== undefined;

/**
 * One member's template values: each reference filled from their attributes (else its fallback),
 * then checked with the broadcast's rules.
 *
 * @example
 * renderMemberSend({ templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'SPRING25'] }, { attributes: { first_name: 'Ada' } });
 * // { parameters: ['Ada', 'SPRING25'] }
 * renderMemberSend({ templateParams: [{ attribute: 'city' }] }, { attributes: {} });
 * // { skipped: 'MISSING_ATTRIBUTE', attribute: 'city' }
 */
export function renderMemberSend(values: CampaignValues, member: Pick<AudienceMember, 'attributes'>): MemberSend {
  const filled = substituteReferences(values, (reference) => attributeText(member, reference.attribute) ?? reference.fallback);
  if (filled.missing !== undefined) return { skipped: 'MISSING_ATTRIBUTE', attribute: filled.missing };
  const { templateParams, ...content } = filled.value;
  const parameters = v.safeParse(templateParametersSchema, templateParams ?? []);
  if (!parameters.success)
    return { skipped: 'INVALID_PARAMETER', field: `templateParams${pathText(parameters.issues[0])}`, rule: parameters.issues[0].message };
  if (!hasContent(values)) return { parameters: parameters.output };
  const checked = v.safeParse(templateContentSchema, content);
  if (!checked.success) return { skipped: 'INVALID_PARAMETER', field: pathText(checked.issues[0]).replace(/^\./, ''), rule: checked.issues[0].message };
  return { parameters: parameters.output, content: checked.output as TemplateContent };
}

function pathText(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((item) => (typeof item.key === 'number' ? `[${item.key}]` : `.${String(item.key)}`)).join('');
}
