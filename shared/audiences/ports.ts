/**
 * The audiences' ports: the store of saved audiences (the API's /audiences), and what a campaign
 * reads of any audience (saved ones and the organization's v1 contacts, `contacts`) page by page.
 */
import type { Audience, AudienceMember, AttributeValue } from './audience';

export interface MemberPage {
  members: AudienceMember[];
  /** Opaque; absent when the audience has no more members. */
  nextCursor?: string;
}

export interface PageRequest {
  limit: number;
  cursor?: string;
}

/**
 * A member as an upsert writes it: the fields given replace the stored ones, `attributes` and `tags`
 * when absent keep what is stored. `numberFromPair`: the number fields (`to`, `countryCode`,
 * `toPhoneNumber`) came from the contact book (a BSUID row whose pair is known) and only fill a
 * member stored without them.
 */
export interface MemberUpsert extends Omit<AudienceMember, 'attributes' | 'tags'> {
  attributes?: Record<string, AttributeValue>;
  tags?: string[];
  numberFromPair?: true;
}

/** An audience with its members by calling code (`callingCodeOf` of the person key; '' when none is known). */
export interface AudienceDetail extends Audience {
  byCountry: Record<string, number>;
}

/** Saved audiences and their members (adapter: the inbox table). */
export interface AudienceStore {
  createAudience(audience: Audience): Promise<void>;
  /** Undefined when the organization has no such audience (or it was deleted). */
  getAudience(organizationId: string, audienceId: string): Promise<Audience | undefined>;
  /** Newest first. */
  listAudiences(organizationId: string, page: PageRequest): Promise<{ audiences: Audience[]; nextCursor?: string }>;
  /** getAudience with the members by calling code (kept with the count, exact). */
  getAudienceDetail(organizationId: string, audienceId: string): Promise<AudienceDetail | undefined>;
  /**
   * True when this call deleted it: the audience is marked deleted at once (no longer read, listed
   * or written); its members stay until `purgeDeletedMembers` removes them.
   */
  deleteAudience(organizationId: string, audienceId: string): Promise<boolean>;
  /**
   * Removes up to `maxMembers` members of a deleted audience, and the audience's mark once none is
   * left (`done`). Undefined when no deleted audience of that id is marked (never was, or purged).
   */
  purgeDeletedMembers(organizationId: string, audienceId: string, maxMembers: number): Promise<{ removed: number; done: boolean } | undefined>;
  /**
   * Writes each member under its person key (the fields given replace the stored ones, see
   * MemberUpsert; one key at most once per call); counts as the store saw them: `added` only for
   * writes that created an item, so `memberCount` and the counts by calling code stay exact.
   */
  upsertMembers(organizationId: string, audienceId: string, members: readonly MemberUpsert[]): Promise<{ added: number; updated: number }>;
  removeMembers(organizationId: string, audienceId: string, personKeys: readonly string[]): Promise<{ removed: number }>;
  /** In person-key order; a page is a consistent view of the members it holds, not of the audience. */
  readMembers(organizationId: string, audienceId: string, page: PageRequest): Promise<MemberPage>;
  /** The members among `personKeys` (at most 100 per call), by person key. */
  membersAmong(organizationId: string, audienceId: string, personKeys: readonly string[]): Promise<Map<string, AudienceMember>>;
}

/**
 * What a campaign reads of any audience, the saved ones and `contacts` alike: the composition answers
 * it from the audience store and the inbox (v1 contacts with their tags and attributes).
 */
export interface MemberSource {
  /** Undefined when the organization has no such audience. */
  describeAudience(organizationId: string, audienceId: string): Promise<Audience | undefined>;
  readMembers(organizationId: string, audienceId: string, page: PageRequest): Promise<MemberPage>;
  /** Which of `personKeys` (at most 100 per call) are members: `excludeAudienceIds` at expansion. */
  membersAmong(organizationId: string, audienceId: string, personKeys: readonly string[]): Promise<Set<string>>;
}

/** The keys on the organization's opt-out list (opt-out keys and BSUIDs), ascending, page by page. */
export interface OptOutKeyPages {
  optedOutKeys(organizationId: string, page: PageRequest): Promise<{ keys: string[]; nextCursor?: string }>;
}

/**
 * Runs work once per key (the idempotency table; the same guard as broadcasts' Idempotency-Key,
 * `IdempotencyGuard` of shared/broadcast/ports.ts, declared here by what audiences need of it).
 */
export interface IdempotentRun {
  run<T extends object>(key: string, payloadHash: string, work: () => Promise<T>, options: { inProgressTimeoutMs: number }): Promise<T>;
}
