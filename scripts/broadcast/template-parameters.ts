/**
 * What a template takes at send time, as the template list (`GET …/templates`) describes it in each
 * template's `parameters`: whether a broadcast can fill it at all, its header, body parameters
 * (positional count or names), buttons, carousel and limited-time offer. An older service lists
 * templates without `parameters`; the CLI then checks a file as it always did (send-command.ts).
 */
import * as v from 'valibot';
import { issueMessages } from '../../shared/http/validation';
import { TemplateChoiceError } from './errors';

const headerSchema = v.looseObject({
  type: v.string(),
  dynamic: v.optional(v.boolean()),
  name: v.optional(v.string()),
});

const bodySchema = v.variant('format', [
  v.looseObject({ format: v.literal('POSITIONAL'), count: v.pipe(v.number(), v.integer(), v.minValue(0)) }),
  v.looseObject({ format: v.literal('NAMED'), names: v.array(v.string()) }),
]);

const buttonSchema = v.looseObject({
  index: v.pipe(v.number(), v.integer(), v.minValue(0)),
  type: v.string(),
  dynamic: v.optional(v.boolean()),
});

const parametersSchema = v.looseObject({
  sendable: v.boolean(),
  unsupported: v.optional(v.array(v.string())),
  header: v.optional(headerSchema),
  body: v.optional(bodySchema),
  buttons: v.optional(v.array(buttonSchema)),
  carousel: v.optional(
    v.looseObject({
      cards: v.pipe(v.number(), v.integer(), v.minValue(1)),
      header: v.optional(headerSchema),
      body: v.optional(bodySchema),
      buttons: v.optional(v.array(buttonSchema)),
    }),
  ),
  limitedTimeOffer: v.optional(v.looseObject({ hasExpiration: v.optional(v.boolean()) })),
});

export type TemplateParameters = v.InferOutput<typeof parametersSchema>;
export type HeaderParameter = v.InferOutput<typeof headerSchema>;
export type BodyParameters = v.InferOutput<typeof bodySchema>;
export type ButtonParameter = v.InferOutput<typeof buttonSchema>;

/** A template without body placeholders, as `parameters` without `body` reads. */
export const NO_BODY_PARAMETERS: BodyParameters = { format: 'POSITIONAL', count: 0 };

/** The label a template goes by in every message: `order_shipped (en_US)`. */
export const templateLabel = (template: { name: string; language: string }): string => `${template.name} (${template.language})`;

/**
 * The template's `parameters`, or undefined when the service lists none (an older version).
 * Throws TemplateChoiceError when they cannot be read (a service this CLI does not understand) or
 * when the template cannot be sent by a broadcast (`sendable: false`, with the service's reasons).
 *
 * @example
 * templateParametersOf({ name: 'promo', language: 'en', parameters: { sendable: false, unsupported: ['buttons[2]: CATALOG buttons cannot be filled by a broadcast'] } });
 * // TemplateChoiceError: template promo (en) cannot be sent by a broadcast: buttons[2]: CATALOG buttons cannot be filled by a broadcast
 */
export function templateParametersOf(template: { name: string; language: string; parameters?: unknown }): TemplateParameters | undefined {
  if (template.parameters === undefined || template.parameters === null) return undefined;
  // Parsed under its field name, so a problem reads `parameters.body.count must be …`.
  const result = v.safeParse(v.object({ parameters: parametersSchema }), { parameters: template.parameters });
  if (!result.success) {
    throw new TemplateChoiceError(
      `the service describes template ${templateLabel(template)} in a way this CLI cannot read: ${issueMessages(result.issues).join('; ')}`,
    );
  }
  const { parameters } = result.output;
  if (!parameters.sendable) {
    const reasons = parameters.unsupported?.length ? parameters.unsupported.join('; ') : 'the service gives no reason';
    throw new TemplateChoiceError(`template ${templateLabel(template)} cannot be sent by a broadcast: ${reasons}`);
  }
  return parameters;
}
