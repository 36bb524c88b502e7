/**
 * The organization's suppression list (opt-outs): numbers that broadcasts and bulk sends skip, at
 * accept time and again at send time (docs/ORGANIZATIONS-AND-V1.md "Opt-outs"). A number gets on
 * it by the v1 API, an operator, an opt-out keyword the customer writes, or Meta's failure 131050
 * (the user stopped marketing messages); it leaves it by the v1 API, an operator, or a start
 * keyword (a keyword entry only). Numbers are matched by their opt-out key
 * (shared/recipients/opt-out-key.ts): a Mexican or Brazilian mobile's two forms are one entry.
 */
import { counterpartOf, type ContactBook } from './contact-book';
import { OptOutNotFoundError } from './errors';
import type { ListResult, ListWindow } from './inbox-entities';
import { windowOf, type Page, type PageRequest } from './contact-use-cases';
import {
  isOptedOut,
  optOutOf,
  withKeywordApplied,
  withOptOutAdded,
  withOptOutRemoved,
  withPreferenceApplied,
  type KeywordKind,
  type OptOut,
  type OptOutRecord,
  type OptOutSource,
  type PreferenceValue,
} from './opt-out-record';

export { optOutSources, type OptOut, type OptOutRecord, type OptOutSource } from './opt-out-record';

/** Decides a number's next record from the one stored; returns its argument itself for "no change". */
export type OptOutChange = (current: OptOutRecord | undefined) => OptOutRecord | undefined;

/** The suppression store (the inbox table; docs/DATA-MODEL.md). Throws InboxStoreUnavailableError like every inbox port. */
export interface OptOutRepository {
  /**
   * Reads the record of the number's opt-out key (strongly consistent; also an entry stored under
   * another form of the number before the key existed), lets `change` decide the next one, and
   * writes it when it differs: one conditional single-item write carrying a unique token (so an SDK
   * retry of an applied write is recognised); when a concurrent writer changed the record in
   * between, reads and decides again. `before` is the record the applied decision was made on.
   */
  updateOptOut(organizationId: string, phoneNumber: string, change: OptOutChange): Promise<{ before?: OptOutRecord; after?: OptOutRecord }>;
  /** The numbers on the list, by opt-out key, ascending; `total` is the whole list's size. */
  listOptOuts(organizationId: string, window: ListWindow): Promise<ListResult<OptOut>>;
  /** Which of `phoneNumbers` are on the list, matched by opt-out key (strongly consistent); the numbers as given. */
  findSuppressed(organizationId: string, phoneNumbers: readonly string[]): Promise<Set<string>>;
  /**
   * The record of each of `keys` (numbers or BSUIDs; strongly consistent; an entry stored under an
   * older form of a number too, read as `updateOptOut` reads it), by the key as given; a key with no
   * record is absent. Reads only, batched: what a webhook batch's new pairs align on.
   */
  recordsOf(organizationId: string, keys: readonly string[]): Promise<Map<string, OptOutRecord>>;
}

export interface OptOutPorts {
  optOuts: OptOutRepository;
  clock: { now(): Date };
  /**
   * Meta's BSUID ↔ phone pairs: a change of one key is applied to its paired key too (absent: the
   * key alone, as before pairs were kept).
   */
  contactBook?: Pick<ContactBook, 'pairOf'>;
}

/**
 * Applies a change to `key`'s record, then to the record of the key Meta paired it with (a BSUID's
 * phone, a phone's BSUID), each decided on its own stored record. Write first, then read the pair:
 * a new pair is recorded first and then reads both opt-out records (identity-pairs.ts), so of a
 * concurrent change and pairing at least one sees the other (the change's pair read comes after its
 * write; if it missed the pair, the pair was written after that read, and the pairing's opt-out read
 * that follows sees the change). Strongly consistent reads on both sides make this hold.
 */
async function updateFollowingPair(
  ports: Pick<OptOutPorts, 'optOuts' | 'contactBook'>,
  organizationId: string,
  key: string,
  changeFor: (key: string) => OptOutChange,
): Promise<{ before?: OptOutRecord; after?: OptOutRecord; paired?: { before?: OptOutRecord } }> {
  const result = await ports.optOuts.updateOptOut(organizationId, key, changeFor(key));
  const pair = await ports.contactBook?.pairOf(organizationId, key);
  if (!pair) return result;
  // Followed even when `key` did not change: a change that crashed after its first write is finished by a retry.
  const paired = counterpartOf(pair, key);
  const { before } = await ports.optOuts.updateOptOut(organizationId, paired, changeFor(paired));
  return { ...result, paired: before === undefined ? {} : { before } };
}

/**
 * Adds the number (a repeat keeps the entry; a `keyword` entry takes the new source, which a START
 * does not undo). `created` false when it was already on the list.
 *
 * @example
 * await addOptOut(ports, { organizationId: 'org_1', phoneNumber: '447700900123', source: 'api' });
 * // { optOut: { phoneNumber: '447700900123', source: 'api', createdAt: '…' }, created: true }
 */
export async function addOptOut(
  ports: OptOutPorts,
  input: { organizationId: string; phoneNumber: string; source: OptOutSource },
): Promise<{ optOut: OptOut; created: boolean }> {
  const now = ports.clock.now().toISOString();
  const { before, after } = await updateFollowingPair(
    ports,
    input.organizationId,
    input.phoneNumber,
    (key) => (current) => withOptOutAdded(current, { phoneNumber: key, source: input.source, now }),
  );
  if (!isOptedOut(after)) throw new TypeError('An added opt-out must be on the list');
  return { optOut: optOutOf(after), created: !isOptedOut(before) };
}

/**
 * Takes the number off the list whatever its source, and the BSUID Meta paired it with;
 * OptOutNotFoundError when neither is on it.
 *
 * @example
 * await removeOptOut(ports, 'org_1', '447700900123');
 */
export async function removeOptOut(ports: Pick<OptOutPorts, 'optOuts' | 'contactBook'>, organizationId: string, phoneNumber: string): Promise<void> {
  const { before, paired } = await updateFollowingPair(ports, organizationId, phoneNumber, () => withOptOutRemoved);
  // Found when the number or the BSUID Meta paired it with was on the list (the API names numbers only).
  if (!isOptedOut(before) && !isOptedOut(paired?.before)) throw new OptOutNotFoundError(phoneNumber);
}

/**
 * One page of the list, by opt-out key.
 *
 * @example
 * await listOptOuts(ports, { organizationId: 'org_1', page: 1, pageSize: 20 }); // { items, total, page: 1, pageSize: 20 }
 */
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
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT', // English
  'ARRET',
  'ARRÊT', // French
  'BAJA',
  'PARAR',
  'ALTO', // Spanish, Portuguese
  'STOPP',
  'ABMELDEN', // German
  'DESCADASTRAR', // Portuguese (Brazil)
]; // prettier-ignore
export const defaultOptInKeywords: readonly string[] = ['START', 'UNSTOP', 'SUBSCRIBE', 'ALTA', 'INICIAR'];

export const normalizeKeyword = (text: string): string => text.trim().normalize('NFC').toLocaleUpperCase('en-US');

export function optOutKeywordsOf(optOut: readonly string[], optIn: readonly string[]): OptOutKeywords {
  const set = (words: readonly string[]) => new Set(words.map(normalizeKeyword).filter((word) => word !== ''));
  return { optOut: set(optOut), optIn: set(optIn) };
}

export type KeywordOutcome = 'opted-out' | 'opted-in' | 'none';

const kindOf = (keywords: OptOutKeywords, text: string | undefined): KeywordKind | undefined => {
  if (text === undefined) return undefined;
  const word = normalizeKeyword(text);
  if (keywords.optOut.has(word)) return 'stop';
  return keywords.optIn.has(word) ? 'start' : undefined;
};

/**
 * A customer's message whose whole text (trimmed, any case) is a keyword, sent at `sentAt` (Meta's
 * timestamp): an opt-out keyword puts the number on the list (source `keyword`), a start keyword
 * takes a `keyword` entry off it; only if it is newer than the last keyword applied for the number
 * (withKeywordApplied). The outcome names the keyword read (`none`: any other text changes nothing).
 *
 * @example
 * await applyOptOutKeyword(ports, keywords, { organizationId: 'org_1', phoneNumber: '447700900123', text: ' Stop ', sentAt: new Date() }); // 'opted-out'
 */
export async function applyOptOutKeyword(
  ports: OptOutPorts,
  keywords: OptOutKeywords,
  input: { organizationId: string; phoneNumber: string; text: string | undefined; sentAt: Date },
): Promise<KeywordOutcome> {
  const kind = kindOf(keywords, input.text);
  if (kind === undefined) return 'none';
  const keyword = { kind, at: input.sentAt.toISOString(), now: ports.clock.now().toISOString() };
  await updateFollowingPair(
    ports,
    input.organizationId,
    input.phoneNumber,
    (key) => (current) => withKeywordApplied(current, { ...keyword, phoneNumber: key }),
  );
  return kind === 'stop' ? 'opted-out' : 'opted-in';
}

/**
 * The user stopped or resumed marketing messages from inside WhatsApp (Meta's `user_preferences`
 * webhook, category `marketing_messages`), at `at` (Meta's time): applied under each identity the
 * event names (its BSUID, its number), each also following its pair, so both identifiers of a
 * paired user end the same (withPreferenceApplied: a `stop` lists them as `user-preference`, a
 * `resume` lifts only a `user-preference` or `webhook-131050` entry; the latest by Meta's time wins).
 *
 * @example
 * await applyMarketingPreference(ports, { organizationId: 'org_1', keys: ['US.1349', '15550100001'], value: 'stop', at: new Date() });
 */
export async function applyMarketingPreference(
  ports: OptOutPorts,
  input: { organizationId: string; keys: readonly string[]; value: PreferenceValue; at: Date },
): Promise<void> {
  const preference = { value: input.value, at: input.at.toISOString(), now: ports.clock.now().toISOString() };
  for (const key of new Set(input.keys)) {
    await updateFollowingPair(
      ports,
      input.organizationId,
      key,
      (paired) => (current) => withPreferenceApplied(current, { ...preference, phoneNumber: paired }),
    );
  }
}
