/**
 * The contact policy's body (`PUT /contact-policy`, the operators' `set-contact-policy`) and its
 * stored form (docs/CAMPAIGNS.md "Frequency caps"). Messages name the rule; the caller's parse
 * prefixes the field (`categories[1] must be one of MARKETING, UTILITY, AUTHENTICATION`).
 */
import * as v from 'valibot';
import type { CappedCategory } from './ports';

export const CAPPED_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const satisfies readonly CappedCategory[];
/** Bounds of a policy: a cap above a message a day for a year is no cap. */
export const CONTACT_POLICY_LIMITS = { maxPerPerson: 1000, maxPerDays: 365 } as const;

const wholeNumber = (max: number) =>
  v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'), v.maxValue(max, `must be at most ${max}`));

const categories = v.pipe(
  v.array(v.picklist(CAPPED_CATEGORIES, `must be one of ${CAPPED_CATEGORIES.join(', ')}`), 'must be an array of template categories'),
  v.minLength(1, 'must hold at least 1 category'),
  v.check((list) => new Set(list).size === list.length, 'must not repeat a category'),
);

/** The body: at most `marketingPerPerson` messages of `categories` (default MARKETING) per person in any `perDays` days. */
export const contactPolicyRequestSchema = v.strictObject(
  {
    marketingPerPerson: wholeNumber(CONTACT_POLICY_LIMITS.maxPerPerson),
    perDays: wholeNumber(CONTACT_POLICY_LIMITS.maxPerDays),
    categories: v.optional(categories),
  },
  'must hold only marketingPerPerson, perDays and categories',
);
export type ContactPolicyRequest = v.InferOutput<typeof contactPolicyRequestSchema>;

/** The stored policy (the adapter reads it back through this). */
export const storedContactPolicySchema = v.object({
  marketingPerPerson: wholeNumber(CONTACT_POLICY_LIMITS.maxPerPerson),
  perDays: wholeNumber(CONTACT_POLICY_LIMITS.maxPerDays),
  categories: v.optional(categories),
  updatedAt: v.string(),
  updatedBy: v.optional(v.string()),
});
