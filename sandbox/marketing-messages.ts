/**
 * The Marketing Messages API's own rules (marketing-messages-api.md §4–§5): which route a send
 * takes and what is refused. `/marketing_messages` carries MARKETING templates only (131055);
 * an account that has onboarded sends through the MM API (`marketing_lite` pricing), one that
 * has not falls back to Cloud API (`marketing`) unless `product_policy` is STRICT; and once an
 * onboarded account sets `disable_marketing_messages_on_cloud_api`, marketing templates are
 * refused on `/messages` (131063).
 */
import type { MarketingMessagesState } from './account-state';
import { marketingDisabledOnCloudApi, marketingTemplatesOnly, marketingTermsNotAccepted, templateStillSyncing } from './graph-errors';
import type { SandboxTemplate } from './sandbox-types';

export const PRODUCT_POLICIES = ['CLOUD_API_FALLBACK', 'STRICT'] as const;
export type ProductPolicy = (typeof PRODUCT_POLICIES)[number];

/** How a `/marketing_messages` send was delivered, as the accepted-message log records it. */
export type MarketingRoute = 'marketing_messages' | 'cloud_api_fallback';

/** Meta refuses a UTILITY or AUTHENTICATION template on `/marketing_messages` before anything else about it. */
export function requireMarketingTemplate(template: SandboxTemplate): void {
  if (template.category !== 'MARKETING') throw marketingTemplatesOnly();
}

/**
 * The route of a `/marketing_messages` send of a MARKETING template, or Meta's refusal.
 *
 * @example
 * marketingRoute({ onboardingStatus: 'ELIGIBLE', disableOnCloudApi: false, syncingTemplates: new Set() }, template, 'CLOUD_API_FALLBACK'); // 'cloud_api_fallback'
 */
export function marketingRoute(state: MarketingMessagesState, template: SandboxTemplate, policy: ProductPolicy): MarketingRoute {
  if (state.onboardingStatus === 'ONBOARDED') {
    // Syncing to the ad account concerns the MM API only; a fallback send never meets it.
    if (state.syncingTemplates.has(template.id)) throw templateStillSyncing(template.name, template.language);
    return 'marketing_messages';
  }
  if (policy === 'STRICT') throw marketingTermsNotAccepted();
  // The fallback is Cloud API, which the flag closes to marketing templates.
  if (state.disableOnCloudApi) throw marketingDisabledOnCloudApi();
  return 'cloud_api_fallback';
}

/**
 * `/messages` refuses MARKETING templates once an onboarded account has disabled them on Cloud
 * API (Meta: the flag affects onboarded accounts only).
 *
 * @example
 * checkCloudApiTemplate({ onboardingStatus: 'ONBOARDED', disableOnCloudApi: true, syncingTemplates: new Set() }, marketingTemplate); // throws 131063
 */
export function checkCloudApiTemplate(state: MarketingMessagesState, template: SandboxTemplate): void {
  if (template.category === 'MARKETING' && state.disableOnCloudApi && state.onboardingStatus === 'ONBOARDED') throw marketingDisabledOnCloudApi();
}
