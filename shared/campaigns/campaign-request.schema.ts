/**
 * The body of POST /campaigns (docs/CAMPAIGNS.md "Creating a campaign"). The template values are
 * the broadcast's (`templateParams` positional or named, `header`, `buttons`, `carousel`,
 * `limitedTimeOffer`), any string of which may be a reference `{ "attribute", "fallback"? }`
 * (campaign-values.ts). They are checked here with the broadcast's own schemas, each reference
 * replaced by its fallback, or by a sample value where it has none, so the rules and messages are
 * the broadcast's; a broken fallback is named as `<field>.fallback`. Whether they fit the template
 * is the use case's check (create-campaign.ts), with the same substitution.
 */
import * as v from 'valibot';
import { campaignSendRulesEntries } from '../send-rules/send-rules.schema';
import { issueParts } from '../http/validation';
import { phoneDigitBounds } from '../recipients/phone-number';
import { phoneDigits } from '../recipients/phone-rule';
import { sendableText } from '../templates/sendable-text';
import { templateContentEntries, templateParametersSchema } from '../templates/template-content.schema';
import { attributionWindowHoursSchema, scheduledAtSchema, templateCategorySchema } from '../broadcast/template-broadcast.schema';
import { audienceSpecSchema } from './audience-filter';
import { holdoutSchema } from './campaign-holdout';
import { substituteReferences, valueReferenceSchema, type CampaignValues } from './campaign-values';

const requiredText = (maxLength: number) =>
  v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(maxLength, `must be at most ${maxLength} characters`), sendableText());

/** Fields that say what a value is, not what it says: never filled per member. */
const LITERAL_ONLY_FIELDS = new Set(['type', 'index', 'mediaId']);
const REFERENCE_SHAPE_RULE = 'must be a reference of attribute and an optional fallback only';
const LITERAL_ONLY_RULE = 'must be a literal value, not an attribute reference (an uploaded mediaId is checked at create; give a per-member image as a link)';

/** What a reference without a fallback stands for at create: the shortest value of the field's kind. */
export function sampleValueFor(path: ReadonlyArray<string | number>, offerExpiresAt: string): string {
  const field = path.at(-1);
  if (field === 'link' || field === 'trackedUrl') return 'https://example.com/x';
  if (field === 'expiresAt') return offerExpiresAt;
  return 'x';
}

/** An offer expiry standing for a reference without a fallback in the shape check (the use case checks one after the send time). */
const SAMPLE_OFFER_EXPIRY = '2099-12-31T23:59:59Z';

/**
 * The values as create checks them: each reference by its fallback, else a sample of its field's kind.
 *
 * @example
 * valuesForCheck({ templateParams: [{ attribute: 'first_name', fallback: 'there' }, { attribute: 'city' }] }, '2026-12-31T00:00:00Z');
 * // { templateParams: ['there', 'x'] }
 */
export function valuesForCheck(values: CampaignValues, offerExpiresAt: string): CampaignValues {
  return substituteReferences(values, (reference, path) => reference.fallback ?? sampleValueFor(path, offerExpiresAt)).value;
}

const VALUE_FIELDS = ['templateParams', 'header', 'buttons', 'carousel', 'limitedTimeOffer'] as const;

/** The broadcast's schemas of the values (template-content.schema.ts), keyed as the request's fields. */
const literalValuesSchema = v.object({ templateParams: v.optional(templateParametersSchema), ...templateContentEntries(scheduledAtSchema) });

type PathItem = v.IssuePathItem;
const pathItem = (input: unknown, key: string | number, value: unknown): PathItem =>
  ({ type: typeof key === 'number' ? 'array' : 'object', origin: 'value', input, key, value }) as PathItem;
const keyText = (path: readonly PathItem[]): string => path.map((item) => String(item.key)).join('.');

/** Every object naming `attribute` must be a whole reference, where a reference may stand; reports each other one. */
function checkReferences(values: Record<string, unknown>, report: (path: PathItem[], message: string) => void, withFallback: Set<string>): void {
  const walk = (value: unknown, path: PathItem[]): void => {
    if (typeof value !== 'object' || value === null) return;
    if (!Array.isArray(value) && 'attribute' in value) {
      const field = path.at(-1)?.key;
      if (typeof field === 'string' && LITERAL_ONLY_FIELDS.has(field)) return report(path, LITERAL_ONLY_RULE);
      const reference = v.safeParse(valueReferenceSchema, value);
      if (!reference.success) {
        const issue = reference.issues[0];
        // An unknown key: the object as a whole is no reference; a value of the wrong type: its field.
        if (issue.type === 'strict_object') return report(path, REFERENCE_SHAPE_RULE);
        return report([...path, ...((issue.path ?? []) as PathItem[])], issue.kind === 'schema' ? 'must be a string' : issue.message);
      }
      if (reference.output.fallback !== undefined) withFallback.add(keyText(path));
      return;
    }
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...path, pathItem(value, index, item)]));
    else for (const [key, item] of Object.entries(value)) walk(item, [...path, pathItem(value, key, item)]);
  };
  for (const field of VALUE_FIELDS) if (values[field] !== undefined) walk(values[field], [pathItem(values, field, values[field])]);
}

const described = (text: string, examples: unknown[]) => v.optional(v.pipe(v.unknown(), v.description(text), v.examples(examples)));

export const campaignRequestSchema = v.pipe(
  v.object({
    name: requiredText(200),
    fromPhoneNumber: phoneDigits(phoneDigitBounds.sender),
    templateName: requiredText(512),
    templateLanguage: requiredText(20),
    templateType: templateCategorySchema,
    audience: audienceSpecSchema,
    templateParams: described(
      'Body values as a broadcast takes them (an array in placeholder order, or an object of values by name); any value may be a reference { "attribute", "fallback"? } to the member\u2019s attribute',
      [[{ attribute: 'first_name', fallback: 'there' }, 'SPRING25'], { first_name: { attribute: 'first_name', fallback: 'there' }, code: 'SPRING25' }],
    ),
    header: described('The header value as a broadcast takes it; its text or link may be a reference', [
      { type: 'text', text: { attribute: 'city', fallback: 'your city' } },
    ]),
    buttons: described('Button values as a broadcast takes them; a url text, payload or couponCode may be a reference', [
      [{ index: 0, type: 'url', text: { attribute: 'coupon' } }],
    ]),
    carousel: described('Carousel cards as a broadcast takes them; any string value may be a reference', [
      [{ header: { type: 'image', link: 'https://cdn.example.com/shirt.jpg' }, templateParams: [{ attribute: 'first_name' }] }],
    ]),
    limitedTimeOffer: described('A limited-time offer\u2019s expiry; expiresAt may be a reference', [{ expiresAt: '2026-12-31T23:59:59Z' }]),
    scheduledAt: v.optional(scheduledAtSchema),
    /** A share of the sendable audience never sent, to measure the campaign's lift (docs/OUTCOMES.md "Holdout and lift"). */
    holdout: v.optional(holdoutSchema),
    /** Hours an inbound message without context still counts for the campaign (docs/OUTCOMES.md); default 72. */
    attributionWindowHours: v.optional(attributionWindowHoursSchema),
    /** Send window, deferral over the cap, canary and halt thresholds (docs/CAMPAIGNS.md). */
    ...campaignSendRulesEntries,
  }),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const { templateParams, header, buttons, carousel, limitedTimeOffer, ...request } = dataset.value;
    const values = Object.fromEntries(
      Object.entries({ templateParams, header, buttons, carousel, limitedTimeOffer }).filter(([, value]) => value !== undefined),
    ) as CampaignValues;
    let broken = false;
    const report = (path: PathItem[], message: string) => {
      broken = true;
      addIssue({ message, path: path as [PathItem, ...PathItem[]] });
    };
    const withFallback = new Set<string>();
    checkReferences(values as Record<string, unknown>, report, withFallback);
    if (broken) return NEVER;
    const literal = v.safeParse(literalValuesSchema, valuesForCheck(values, SAMPLE_OFFER_EXPIRY), { abortPipeEarly: true });
    if (!literal.success) {
      const path = (literal.issues[0].path ?? []) as PathItem[];
      const fallback = path.length > 0 && withFallback.has(keyText(path)) ? [pathItem(undefined, 'fallback', undefined)] : [];
      // The rule as the broadcast's 400 words it (shared/http/validation.ts rewords valibot's type messages).
      report([...path, ...fallback], issueParts([literal.issues[0]])[0]!.rule);
      return NEVER;
    }
    return { ...request, values };
  }),
);

export type CampaignRequest = v.InferOutput<typeof campaignRequestSchema>;
