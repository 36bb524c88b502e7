/**
 * The audiences' ports: the store of saved audiences (the API's /audiences), and what a campaign
 * reads of any audience (saved ones and the organization's v1 contacts, `contacts`) page by page.
 */
import type { Audience, AudienceMember } from './audience';

export interface MemberPage {
  members: AudienceMember[];
  /** Opaque; absent when the audience has no more members. */
  nextCursor?: string;
}

export interface PageRequest {
  limit: number;
  cursor?: string;
}

/** Saved audiences and their members (adapter: the inbox table). */
export interface AudienceStore {
  createAudience(audience: Audience): Promise<void>;
  /** Undefined when the organization has no such audience (or it was deleted). */
  getAudience(organizationId: string, audienceId: string): Promise<Audience | undefined>;
  /** Newest first. */
  listAudiences(organizationId: string, page: PageRequest): Promise<{ audiences: Audience[]; nextCursor?: string }>;
  /** True when this call deleted it. */
  deleteAudience(organizationId: string, audienceId: string): Promise<boolean>;
  /** Writes each member under its person key (replacing the fields given); counts as the store saw them. */
  upsertMembers(organizationId: string, audienceId: string, members: readonly AudienceMember[]): Promise<{ added: number; updated: number }>;
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
