/**
 * Which API a template broadcast's messages go through: Meta's Marketing Messages API
 * (`POST /{phone-number-id}/marketing_messages`) or Cloud API (`POST /{phone-number-id}/messages`).
 * Pure rules; the accept decides once per job (marketing-messages-onboarding.ts reads what it needs),
 * the decision travels in the chunk message's `template.api`, and the chunk worker sends by it
 * (chunk-worker/send-api.ts). docs/BROADCAST.md "Marketing Messages API".
 *
 * Facts (/work/shared/meta/marketing-messages-api.md): the API takes MARKETING templates only, with
 * the same body as `/messages` plus `product_policy`; with `CLOUD_API_FALLBACK` (Meta's default,
 * sent explicitly) a business account that has not onboarded is delivered through Cloud API by
 * Meta rather than refused.
 */
import { DEFAULT_MARKETING_MESSAGES, type MarketingMessagesSetting } from '../tenancy/tenancy-entities';

/** The API that carried a message, as the recipients list and the job status name it. */
export type SentVia = 'marketing_messages' | 'cloud_api';

/** Meta's `marketing_messages_onboarding_status` of an account that may send through the API. */
export const ONBOARDED = 'ONBOARDED';

/** Sent on every `/marketing_messages` body: Meta delivers through Cloud API when the account cannot use the API. */
export const MARKETING_PRODUCT_POLICY = 'CLOUD_API_FALLBACK';

export interface RouteInput {
  /** The template's category as Meta reports it (`MARKETING`, `UTILITY`, `AUTHENTICATION`). */
  category: string;
  /** The business account's setting; undefined: `auto` (accounts recorded before the setting existed). */
  setting: MarketingMessagesSetting | undefined;
  /** Meta's onboarding status, when read; undefined: not read, absent, or the read failed (not onboarded). */
  onboardingStatus?: string;
  /** The template has a max price (template-max-price.ts): Meta sends it through the Marketing Messages API only (131061 on `/messages`). */
  maxPrice?: boolean;
}

/**
 * Whether the route depends on Meta's onboarding status: only a MARKETING template of an account
 * set to `auto` (no other send reads it).
 *
 * @example
 * needsOnboardingStatus('MARKETING', undefined); // true (auto)
 * needsOnboardingStatus('UTILITY', 'auto'); // false
 */
export const needsOnboardingStatus = (category: string, setting: MarketingMessagesSetting | undefined, maxPrice = false): boolean =>
  !maxPrice && category === 'MARKETING' && (setting ?? DEFAULT_MARKETING_MESSAGES) === 'auto';

/**
 * The API a template send goes through: a MARKETING template of an account whose setting is on
 * (`enabled`, or `auto` and Meta answered `ONBOARDED`) goes through the Marketing Messages API;
 * everything else, and everything in doubt, through Cloud API. A template with a max price goes
 * through the Marketing Messages API whatever the setting: Meta refuses it anywhere else (131061).
 *
 * @example
 * marketingMessagesRoute({ category: 'MARKETING', setting: 'enabled' }); // 'marketing_messages'
 * marketingMessagesRoute({ category: 'MARKETING', setting: 'auto', onboardingStatus: 'ONBOARDED' }); // 'marketing_messages'
 * marketingMessagesRoute({ category: 'MARKETING', setting: 'auto', onboardingStatus: 'ELIGIBLE' }); // 'cloud_api'
 * marketingMessagesRoute({ category: 'UTILITY', setting: 'enabled' }); // 'cloud_api'
 * marketingMessagesRoute({ category: 'MARKETING', setting: 'disabled', maxPrice: true }); // 'marketing_messages'
 */
export function marketingMessagesRoute(input: RouteInput): SentVia {
  if (input.maxPrice === true) return 'marketing_messages';
  if (input.category !== 'MARKETING') return 'cloud_api';
  switch (input.setting ?? DEFAULT_MARKETING_MESSAGES) {
    case 'enabled':
      return 'marketing_messages';
    case 'disabled':
      return 'cloud_api';
    case 'auto':
      return input.onboardingStatus === ONBOARDED ? 'marketing_messages' : 'cloud_api';
  }
}

/**
 * A `/messages` template body as `/marketing_messages` takes it: the same, plus `product_policy`.
 *
 * @example
 * marketingMessagesBody({ messaging_product: 'whatsapp', to: '919800000001', type: 'template', template });
 * // { ..., product_policy: 'CLOUD_API_FALLBACK' }
 */
export const marketingMessagesBody = (body: Readonly<Record<string, unknown>>): Record<string, unknown> => ({
  ...body,
  product_policy: MARKETING_PRODUCT_POLICY,
});
