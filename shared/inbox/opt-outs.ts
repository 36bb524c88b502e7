/**
 * The organization's suppression list (opt-outs): numbers that broadcasts and bulk sends skip
 * (docs/ORGANIZATIONS-AND-V1.md, "Opt-outs"). A number gets on it by the v1 API, by an opt-out
 * keyword the customer writes, or by Meta's failure 131050 (the user stopped marketing messages);
 * it leaves it by the v1 API or a start keyword.
 */
import { OptOutNotFoundError } from './errors';
import type { ListResult, ListWindow } from './inbox-entities';
import { windowOf, type Page, type PageRequest } from './contact-use-cases';

export const optOutSources = ['keyword', 'webhook-131050', 'api'] as const;
export type OptOutSource = (typeof optOutSources)[number];

export interface OptOut {
  /** Digits, country code included. */
  phoneNumber: string;
  source: OptOutSource;
  createdAt: string;
}

/** The suppression store (the inbox table; docs/DATA-MODEL.md). Throws InboxStoreUnavailableError like every inbox port. */
export interface OptOutRepository {
  /**
   * Put if absent: `added` true with the new entry, or false with the entry already on the list
   * (kept as it was: first source and time).
   */
  addOptOut(organizationId: string, optOut: OptOut): Promise<{ added: boolean; optOut: OptOut }>;
  /** True when the number was on the list and is removed now. */
  removeOptOut(organizationId: string, phoneNumber: string): Promise<boolean>;
  /** By phone number, ascending; `total` is the whole list's size. */
  listOptOuts(organizationId: string, window: ListWindow): Promise<ListResult<OptOut>>;
  /** Which of `phoneNumbers` are on the list (strongly consistent). */
  findSuppressed(organizationId: string, phoneNumbers: readonly string[]): Promise<Set<string>>;
}

export interface OptOutPorts {
  optOuts: OptOutRepository;
  clock: { now(): Date };
}

/** Adds the number (a repeat keeps the first entry and its source). `created` false on a repeat. */
export async function addOptOut(
  ports: OptOutPorts,
  input: { organizationId: string; phoneNumber: string; source: OptOutSource },
): Promise<{ optOut: OptOut; created: boolean }> {
  const optOut: OptOut = { phoneNumber: input.phoneNumber, source: input.source, createdAt: ports.clock.now().toISOString() };
  const { added, optOut: stored } = await ports.optOuts.addOptOut(input.organizationId, optOut);
  return { optOut: stored, created: added };
}

/** OptOutNotFoundError when the number is not on the list. */
export async function removeOptOut(ports: Pick<OptOutPorts, 'optOuts'>, organizationId: string, phoneNumber: string): Promise<void> {
  if (!(await ports.optOuts.removeOptOut(organizationId, phoneNumber))) throw new OptOutNotFoundError(phoneNumber);
}

export async function listOptOuts(ports: Pick<OptOutPorts, 'optOuts'>, input: { organizationId: string } & PageRequest): Promise<Page<OptOut>> {
  const result = await ports.optOuts.listOptOuts(input.organizationId, windowOf(input));
  return { ...result, page: input.page, pageSize: input.pageSize };
}

/** Keywords as written by customers; compared trimmed, case-insensitively, accents kept (ARRÊT and ARRET both listed). */
export interface OptOutKeywords {
  optOut: ReadonlySet<string>;
  optIn: ReadonlySet<string>;
}

export const defaultOptOutKeywords: readonly string[] = [
  'STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', // English
  'ARRET', 'ARRÊT', // French
  'BAJA', 'PARAR', 'ALTO', // Spanish, Portuguese
  'STOPP', 'ABMELDEN', // German
  'DESCADASTRAR', // Portuguese (Brazil)
]; // prettier-ignore
export const defaultOptInKeywords: readonly string[] = ['START', 'UNSTOP', 'SUBSCRIBE', 'ALTA', 'INICIAR'];

export const normalizeKeyword = (text: string): string => text.trim().normalize('NFC').toLocaleUpperCase('en-US');

export function optOutKeywordsOf(optOut: readonly string[], optIn: readonly string[]): OptOutKeywords {
  const set = (words: readonly string[]) => new Set(words.map(normalizeKeyword).filter((word) => word !== ''));
  return { optOut: set(optOut), optIn: set(optIn) };
}

export type KeywordOutcome = 'opted-out' | 'opted-in' | 'none';

/**
 * A customer's message whose whole text (trimmed, any case) is a keyword: an opt-out keyword adds
 * the number (source `keyword`), a start keyword removes it. Any other text changes nothing.
 */
export async function applyOptOutKeyword(
  ports: OptOutPorts,
  keywords: OptOutKeywords,
  input: { organizationId: string; phoneNumber: string; text: string | undefined },
): Promise<KeywordOutcome> {
  if (input.text === undefined) return 'none';
  const word = normalizeKeyword(input.text);
  if (keywords.optOut.has(word)) {
    await addOptOut(ports, { organizationId: input.organizationId, phoneNumber: input.phoneNumber, source: 'keyword' });
    return 'opted-out';
  }
  if (keywords.optIn.has(word)) {
    await ports.optOuts.removeOptOut(input.organizationId, input.phoneNumber);
    return 'opted-in';
  }
  return 'none';
}
