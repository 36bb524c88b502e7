/**
 * What tracked links need from storage (docs/OUTCOMES.md "Tracked links").
 *
 * - ClickLinkKeyStore: the platform's one link key, kept encrypted (TokenCipher, purpose `click-link`).
 * - ClickDestinations: what a token's job and recipient say about the link, in one read.
 * - ClickCorrelations: Meta's `click_id` seen by the redirect, so Meta's click event is not counted twice.
 */
import type { ClickReference } from './click-token';

export interface ClickLinkKeyStore {
  /** The stored (encrypted) key; undefined before the first use. */
  read(): Promise<string | undefined>;
  /** Stores `encrypted` unless a key is already stored (a conditional put); answers the key that is stored now, whoever wrote it. */
  createIfAbsent(encrypted: string): Promise<string>;
}

/** What the redirect learns from a token's job (and recipient): where to send the person, and whose click it is. */
export interface ClickTarget {
  /** The https destination fixed at accept. */
  url: string;
  organizationId: string;
  campaignId?: string;
}

export interface ClickDestinations {
  /**
   * The destination of `reference` with its job's owner: one read (the job's item, with the
   * recipient's kept values when the token says the recipient had their own). Undefined when the
   * job or recipient is unknown, expired (past the job's retention), or has no tracked URL for that button.
   */
  targetOf(reference: ClickReference, now: Date): Promise<ClickTarget | undefined>;
}

export interface ClickCorrelations {
  /** Remembers that the redirect saw Meta's `click_id` for this click (one conditional put, kept 8 days). */
  remember(clickId: string, reference: ClickReference, now: Date): Promise<void>;
  /** The click the redirect saw under Meta's `click_id`, if any. */
  find(clickId: string): Promise<ClickReference | undefined>;
}
