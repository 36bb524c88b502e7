/**
 * What the analytics endpoints count: one event per accepted send, with the dimensions Meta
 * reports (phone, country, pricing category and type, template). Kept beside the accepted-message
 * log and cleared with it, so analytics always describe exactly the messages the log shows.
 */
export const PRICING_CATEGORIES = [
  'AUTHENTICATION',
  'AUTHENTICATION_INTERNATIONAL',
  'MARKETING',
  'MARKETING_LITE',
  'REFERRAL_CONVERSION',
  'SERVICE',
  'UTILITY',
] as const;
export type PricingCategory = (typeof PRICING_CATEGORIES)[number];

export const PRICING_TYPES = ['REGULAR', 'FREE_CUSTOMER_SERVICE', 'FREE_ENTRY_POINT'] as const;
export type PricingType = (typeof PRICING_TYPES)[number];

export interface MessageEvent {
  /** Milliseconds since the epoch. */
  at: number;
  wabaId: string;
  phoneNumberId: string;
  /** Digits, as `analytics.phone_numbers` filters take them. */
  displayPhoneNumber: string;
  recipient: string;
  /** ISO 3166 alpha-2 of the recipient's calling code, "ZZ" when unknown. */
  country: string;
  templateId?: string;
  pricingCategory: PricingCategory;
  pricingType: PricingType;
}

export class MessageEventLog {
  private events: MessageEvent[] = [];

  record(event: MessageEvent): void {
    this.events.push(event);
  }

  forWaba(wabaId: string): MessageEvent[] {
    return this.events.filter((event) => event.wabaId === wabaId);
  }

  clear(): void {
    this.events = [];
  }
}
