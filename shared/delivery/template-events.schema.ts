/**
 * The template changes of Meta's webhook (`message_template_status_update`,
 * `message_template_quality_update`, `template_category_update`), read leniently like the rest of
 * the body (webhook-payload.schema.ts): a malformed value is skipped and reported, never fatal.
 * Shapes: Meta's webhook references (../shared/meta/marketing-messages-api.md §10 for the two forms
 * of the category update).
 */
import * as v from 'valibot';
import type { TemplateAttributeUpdate, TemplateStatusUpdate } from './ports';

/** A template's new state: applied by the template sink and sent as `template.status`. */
export interface TemplateStatusChange {
  kind: 'template-status';
  wabaId: string;
  update: TemplateStatusUpdate;
}

/** A template's new quality or category: applied by the template sink and sent as `template.updated`. */
export interface TemplateAttributeChange {
  kind: 'template-attribute';
  wabaId: string;
  update: TemplateAttributeUpdate;
}

/** What one template change's value became: a change, nothing to apply (`ignored`), or the issues that made it unreadable. */
export type TemplateValueReading = { change: TemplateStatusChange | TemplateAttributeChange } | { ignored: true } | { issues: readonly v.BaseIssue<unknown>[] };

/** The fields whose changes this file reads. */
export const TEMPLATE_CHANGE_FIELDS = ['message_template_status_update', 'message_template_quality_update', 'template_category_update'] as const;
export type TemplateChangeField = (typeof TEMPLATE_CHANGE_FIELDS)[number];

const nonEmpty = (field: string) => v.pipe(v.string(`${field} must be a string`), v.minLength(1, `${field} must not be empty`));
const optionalName = (field: string) => v.optional(v.pipe(v.string(`${field} must be a string`), v.toUpperCase()));

const templateFields = {
  message_template_id: v.pipe(v.union([v.number(), v.string()], 'message_template_id must be an id'), v.transform(String)),
  message_template_name: nonEmpty('message_template_name'),
  message_template_language: nonEmpty('message_template_language'),
};

const statusValueSchema = v.looseObject({
  ...templateFields,
  event: nonEmpty('event'),
  reason: v.optional(v.nullable(v.string())),
  other_info: v.optional(v.looseObject({ title: v.optional(v.string()) })),
});

const qualityValueSchema = v.looseObject({
  ...templateFields,
  new_quality_score: v.pipe(nonEmpty('new_quality_score'), v.toUpperCase()),
  previous_quality_score: optionalName('previous_quality_score'),
});

/** The completed form names `previous_category`; the impending one `correct_category` (and no previous). */
const categoryValueSchema = v.looseObject({
  ...templateFields,
  new_category: v.pipe(nonEmpty('new_category'), v.toUpperCase()),
  previous_category: optionalName('previous_category'),
  correct_category: v.optional(v.unknown()),
});

type TemplateFields = v.InferOutput<v.ObjectSchema<typeof templateFields, undefined>>;

const identity = (wabaId: string, value: TemplateFields, at: Date) => ({
  wabaId,
  templateId: value.message_template_id,
  name: value.message_template_name,
  language: value.message_template_language,
  at,
});

/**
 * Reads one template change's value of the entry `wabaId` at Meta's time `at`.
 *
 * @example
 * readTemplateChange('message_template_quality_update', { message_template_id: 1, message_template_name: 'promo',
 *   message_template_language: 'en', previous_quality_score: 'GREEN', new_quality_score: 'YELLOW' }, '102', at)
 * // → { change: { kind: 'template-attribute', wabaId: '102', update: { change: 'quality', previous: 'GREEN', current: 'YELLOW', … } } }
 */
export function readTemplateChange(field: TemplateChangeField, value: unknown, wabaId: string, at: Date): TemplateValueReading {
  if (field === 'message_template_status_update') {
    const parsed = v.safeParse(statusValueSchema, value);
    if (!parsed.success) return { issues: parsed.issues };
    const reason = parsed.output.reason || parsed.output.other_info?.title;
    const update: TemplateStatusUpdate = { ...identity(wabaId, parsed.output, at), status: parsed.output.event.toUpperCase(), ...(reason ? { reason } : {}) };
    return { change: { kind: 'template-status', wabaId, update } };
  }
  if (field === 'message_template_quality_update') {
    const parsed = v.safeParse(qualityValueSchema, value);
    if (!parsed.success) return { issues: parsed.issues };
    const { previous_quality_score: previous, new_quality_score: current } = parsed.output;
    return attributeChange(wabaId, { ...identity(wabaId, parsed.output, at), change: 'quality', current, ...(previous ? { previous } : {}) });
  }
  const parsed = v.safeParse(categoryValueSchema, value);
  if (!parsed.success) return { issues: parsed.issues };
  // The impending notice announces a change Meta has not made: routing and prices follow only the completed one (§10).
  if (parsed.output.previous_category === undefined && parsed.output.correct_category !== undefined) return { ignored: true };
  const { previous_category: previous, new_category: current } = parsed.output;
  return attributeChange(wabaId, { ...identity(wabaId, parsed.output, at), change: 'category', current, ...(previous ? { previous } : {}) });
}

const attributeChange = (wabaId: string, update: TemplateAttributeUpdate): TemplateValueReading => ({ change: { kind: 'template-attribute', wabaId, update } });
