/**
 * Saved audiences: named lists of the people a business keeps, each member one person (one key per
 * person, the opt-out key; a paired phone and business-scoped user id are one person) with the
 * attributes and tags a campaign can choose by and fill its template from (docs/CAMPAIGNS.md).
 *
 * Plain data and bounds; no dependency beyond shared/recipients.
 */

/** The organization's v1 contacts, read as an audience (read-only: managed through /v1/contacts). */
export const CONTACTS_AUDIENCE_ID = 'contacts';

/** Bounds of what a member carries (docs/CAMPAIGNS.md "Attributes"). */
export const AUDIENCE_LIMITS = {
  /** Members per POST / DELETE of members. */
  membersPerRequest: 10_000,
  /** Attributes per member. */
  attributesPerMember: 50,
  /** An attribute name: letters, digits and `_`, 1 to 64 characters. */
  attributeNameLength: 64,
  /** A string attribute value, in characters (Meta's limit on one template parameter value). */
  attributeValueLength: 1024,
  /** Tags per member. */
  tagsPerMember: 20,
  /** One tag, in characters (lower-cased on write). */
  tagLength: 64,
  /** An audience's name, in characters. */
  nameLength: 100,
} as const;

/** Letters, digits and underscores. */
export const ATTRIBUTE_NAME_PATTERN = /^[A-Za-z0-9_]{1,64}$/;

export type AttributeValue = string | number | boolean;

export interface Audience {
  /** `aud_…` (time-ordered), or `contacts`. */
  audienceId: string;
  organizationId: string;
  name: string;
  memberCount: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * One person of an audience as stored. `personKey` is the member's identity within the audience:
 * the opt-out key of their number (shared/recipients/opt-out-key.ts), or their business-scoped user
 * id when no number is known for them (a BSUID the contact book pairs with a number is keyed by the
 * number). `to` is the recipient key a send addresses: the number's E.164 digits when one is known,
 * else the BSUID.
 */
export interface AudienceMember {
  personKey: string;
  to: string;
  /** Calling code and national number as given ('' both for a member known only by BSUID). */
  countryCode: string;
  toPhoneNumber: string;
  userId?: string;
  attributes: Record<string, AttributeValue>;
  /** Lower case, unique, in the order given. */
  tags: string[];
  updatedAt: string;
}
