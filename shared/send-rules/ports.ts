/**
 * Ports of the send rules (docs/CAMPAIGNS.md "Frequency caps"): the organization's contact policy
 * and the per-person record of capped sends.
 */

/** Template categories a frequency cap may count. */
export type CappedCategory = 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';

/**
 * An organization's contact policy: at most `marketingPerPerson` messages of the capped categories
 * to one person in any `perDays` days, across every campaign and broadcast of the organization.
 * Off (no policy) by default.
 */
export interface ContactPolicy {
  marketingPerPerson: number;
  perDays: number;
  /** The categories counted; absent: MARKETING only. */
  categories?: CappedCategory[];
  updatedAt: string;
  /** Who set it: `admin` (the operator's CLI), `person:<id>` or an API key's credential id. */
  updatedBy?: string;
}

export interface ContactPolicyStore {
  /** The organization's policy; undefined when it has none (no cap). */
  policyOf(organizationId: string): Promise<ContactPolicy | undefined>;
  /** Sets the policy, or removes it (`undefined`). */
  setPolicy(organizationId: string, policy: ContactPolicy | undefined): Promise<void>;
}

/** One send counted against a person's cap; `sendId` makes a repeat of the same send count once. */
export interface CappedSend {
  /** `<jobId>#<recipient index>`: the same recipient of the same job reserves once however often it is retried. */
  sendId: string;
  at: Date;
}

export type CapReservation = { reserved: true } | { reserved: false /** When the oldest counted send leaves the window. */; allowedAt: Date };

export interface FrequencyCapStore {
  /**
   * Counts `send` for the person when fewer than `limit.count` sends of theirs fall in the last
   * `limit.perDays` days (or it is already counted); refuses otherwise. Exact under concurrency:
   * two reservations for one person never both take the last place.
   */
  reserve(organizationId: string, personKey: string, send: CappedSend, limit: { count: number; perDays: number }): Promise<CapReservation>;
  /** Gives the place back (a send that definitely did not go out). */
  release(organizationId: string, personKey: string, sendId: string): Promise<void>;
}
