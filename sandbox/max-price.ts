/**
 * Meta's rules of a template with a max price (`optimization_spec`, fact sheet row 4 of
 * platform-changes-2026-h2.md): sent through the Marketing Messages API only (131061 on
 * `/messages`, and on Meta's own Cloud API fallback of an account that has not onboarded), never to
 * a business-scoped user id (131062), and not in every country (131065: the countries are chosen with
 * `/_sandbox/control` `maxPriceUnavailableCountries`).
 */
import { bsuidRecipientNotSupported, maxPriceNeedsMarketingMessages, maxPriceNotAvailableInCountry } from './graph-errors';
import type { MarketingRoute } from './marketing-messages';
import type { SandboxTemplate } from './sandbox-types';

export interface MaxPriceSend {
  template: SandboxTemplate;
  /** The `/marketing_messages` route, or undefined for a `/messages` send. */
  via: MarketingRoute | undefined;
  addressedBy: 'phone' | 'bsuid';
  /** The user's country (ISO alpha-2): of the number, or the BSUID's prefix. */
  country: string;
  unavailableIn: (country: string) => boolean;
}

/**
 * Throws Meta's refusal of a max-price template send, in Meta's order (endpoint, recipient kind,
 * country); a template without a max price passes.
 *
 * @example
 * checkMaxPriceSend({ template, via: undefined, addressedBy: 'phone', country: 'GB', unavailableIn: () => false }); // throws 131061
 */
export function checkMaxPriceSend(send: MaxPriceSend): void {
  const { template } = send;
  if (template.optimizationSpec === undefined) return;
  if (send.via !== 'marketing_messages') throw maxPriceNeedsMarketingMessages(template.name, template.language);
  if (send.addressedBy === 'bsuid')
    throw bsuidRecipientNotSupported('Templates with a max price (optimization_spec) cannot be sent to business-scoped user ID recipients.');
  if (send.unavailableIn(send.country)) throw maxPriceNotAvailableInCountry(send.country);
}
