/**
 * One number's record on the organization's suppression list and the rules that change it
 * (docs/ORGANIZATIONS-AND-V1.md "Opt-outs"). Pure functions: the store reads the record, one of
 * these decides the next, and the store writes it with one conditional single-item write (and
 * decides again on what a concurrent writer left), so concurrent STOP and START end as the latest
 * by Meta's timestamp says, whatever order they are applied in.
 */

/**
 * Who put a number on the list: `keyword` (the customer wrote an opt-out keyword such as STOP:
 * the inbound stop), `webhook-131050` (Meta refused a send: the user stopped marketing messages),
 * `api` (`POST /v1/opt-outs`), `operator` (the admin CLI), `user-preference` (the user stopped
 * marketing messages from inside WhatsApp: Meta's `user_preferences` webhook). Only a `keyword`
 * entry is undone by the customer's start keyword, and only a `user-preference` or `webhook-131050`
 * entry (both record Meta's marketing stop) by the user's `resume`: the business's own decisions
 * stand until removed by the API or an operator.
 */
export const optOutSources = ['keyword', 'webhook-131050', 'api', 'operator', 'user-preference'] as const;
export type OptOutSource = (typeof optOutSources)[number];

/** An entry of the list as the v1 API shows it. */
export interface OptOut {
  /** Digits, country code included, as the write that put it on the list gave them. */
  phoneNumber: string;
  source: OptOutSource;
  createdAt: string;
}

/**
 * The stored record: on the list (`opted-out`), or off it after having been on it or after a
 * START (`opted-in`: kept for the time of the last keyword, so an older STOP arriving later is
 * recognised as older). `keywordAt` is Meta's time of the latest STOP or START applied;
 * `preferenceAt` Meta's time of the latest marketing preference (`stop` / `resume`) applied.
 */
export type OptOutRecord =
  | (OptOut & { state: 'opted-out'; keywordAt?: string; preferenceAt?: string })
  | { state: 'opted-in'; phoneNumber: string; keywordAt?: string; preferenceAt?: string };

/** What a customer's keyword asks: off the list (`stop`) or back on it (`start`). */
export type KeywordKind = 'stop' | 'start';

/** Whether the record keeps its number on the list (broadcasts skip it). */
export const isOptedOut = (record: OptOutRecord | undefined): record is OptOutRecord & { state: 'opted-out' } => record?.state === 'opted-out';

/**
 * The entry the v1 API shows of a record on the list.
 *
 * @example
 * optOutOf({ state: 'opted-out', phoneNumber: '447700900123', source: 'api', createdAt: '2026-03-01T09:00:00.000Z' });
 * // { phoneNumber: '447700900123', source: 'api', createdAt: '2026-03-01T09:00:00.000Z' }
 */
export function optOutOf(record: OptOutRecord & { state: 'opted-out' }): OptOut {
  return { phoneNumber: record.phoneNumber, source: record.source, createdAt: record.createdAt };
}

/** The times a record keeps across changes: its last keyword's and its last preference's. */
const keywordTimeOf = (record: OptOutRecord | undefined) => ({
  ...(record?.keywordAt === undefined ? {} : { keywordAt: record.keywordAt }),
  ...(record?.preferenceAt === undefined ? {} : { preferenceAt: record.preferenceAt }),
});

/**
 * The record after `source` adds the number at `now`. A number already on the list keeps its entry
 * (first time, number as first written), except that a `keyword` entry takes the new source when
 * the API, an operator or Meta adds it too: their decision is not undone by a START. Returns
 * `current` itself when nothing changes.
 *
 * @example
 * withOptOutAdded(undefined, { phoneNumber: '447700900123', source: 'api', now: '2026-03-01T09:00:00.000Z' });
 * // { state: 'opted-out', phoneNumber: '447700900123', source: 'api', createdAt: '2026-03-01T09:00:00.000Z' }
 */
export function withOptOutAdded(current: OptOutRecord | undefined, added: { phoneNumber: string; source: OptOutSource; now: string }): OptOutRecord {
  if (isOptedOut(current)) return current.source === 'keyword' && added.source !== 'keyword' ? { ...current, source: added.source } : current;
  return { state: 'opted-out', phoneNumber: added.phoneNumber, source: added.source, createdAt: added.now, ...keywordTimeOf(current) };
}

/**
 * The record after the API or an operator removes the number: off the list whatever its source
 * (the time of the last keyword kept). `current` itself when the number is not on the list.
 *
 * @example
 * withOptOutRemoved({ state: 'opted-out', phoneNumber: '447700900123', source: 'keyword', createdAt: 'T1', keywordAt: 'T0' });
 * // { state: 'opted-in', phoneNumber: '447700900123', keywordAt: 'T0' }
 */
export function withOptOutRemoved(current: OptOutRecord | undefined): OptOutRecord | undefined {
  if (!isOptedOut(current)) return current;
  return { state: 'opted-in', phoneNumber: current.phoneNumber, ...keywordTimeOf(current) };
}

/**
 * The record after the customer's keyword sent at `at` (Meta's timestamp, ISO), applied at `now`.
 * A keyword no newer than the last one applied changes nothing (a redelivery, or an older message
 * arriving late): the latest by Meta's time wins. A STOP puts the number on the list (source
 * `keyword`; an entry already there keeps its source). A START takes a `keyword` entry off the list
 * and leaves any other on it; either way its time is kept.
 *
 * @example
 * const stopped = withKeywordApplied(undefined, { kind: 'stop', phoneNumber: '447700900123', at: '2026-03-01T09:00:00.000Z', now: '2026-03-01T09:00:02.000Z' });
 * withKeywordApplied(stopped, { kind: 'start', phoneNumber: '447700900123', at: '2026-03-01T08:59:00.000Z', now: '2026-03-01T09:00:03.000Z' }) === stopped; // true: older
 */
export function withKeywordApplied(
  current: OptOutRecord | undefined,
  keyword: { kind: KeywordKind; phoneNumber: string; at: string; now: string },
): OptOutRecord {
  if (current?.keywordAt !== undefined && current.keywordAt >= keyword.at) return current;
  if (keyword.kind === 'stop') {
    if (isOptedOut(current)) return { ...current, keywordAt: keyword.at };
    return {
      ...keywordTimeOf(current),
      state: 'opted-out',
      phoneNumber: keyword.phoneNumber,
      source: 'keyword',
      createdAt: keyword.now,
      keywordAt: keyword.at,
    };
  }
  if (isOptedOut(current) && current.source !== 'keyword') return { ...current, keywordAt: keyword.at };
  return { ...keywordTimeOf(current), state: 'opted-in', phoneNumber: current?.phoneNumber ?? keyword.phoneNumber, keywordAt: keyword.at };
}

/** What a user's marketing preference in WhatsApp says (Meta's `user_preferences`, category `marketing_messages`). */
export type PreferenceValue = 'stop' | 'resume';

/** The sources a `resume` takes off the list: the entries that recorded Meta's marketing stop. */
const liftedByResume: ReadonlySet<OptOutSource> = new Set(['user-preference', 'webhook-131050']);

/**
 * The record after the user's marketing preference set at `at` (Meta's timestamp, ISO), applied at
 * `now`. As keywords: a preference no newer than the last one applied changes nothing. A `stop`
 * puts the number on the list (source `user-preference`; a `keyword` entry takes that source, which
 * a START does not undo; any other entry stays as it is). A `resume` takes a `user-preference` or
 * `webhook-131050` entry off the list (the user lifted the stop both recorded) and leaves the
 * business's and the customer's keyword decisions on it; either way its time is kept.
 *
 * @example
 * const stopped = withPreferenceApplied(undefined, { value: 'stop', phoneNumber: 'US.1', at: '2026-11-01T09:00:00.000Z', now: '2026-11-01T09:00:02.000Z' });
 * // { state: 'opted-out', phoneNumber: 'US.1', source: 'user-preference', createdAt: '2026-11-01T09:00:02.000Z', preferenceAt: '2026-11-01T09:00:00.000Z' }
 * withPreferenceApplied(stopped, { value: 'resume', phoneNumber: 'US.1', at: '2026-11-02T09:00:00.000Z', now: 'T' }); // { state: 'opted-in', phoneNumber: 'US.1', preferenceAt: '2026-11-02T09:00:00.000Z' }
 */
export function withPreferenceApplied(
  current: OptOutRecord | undefined,
  preference: { value: PreferenceValue; phoneNumber: string; at: string; now: string },
): OptOutRecord {
  if (current?.preferenceAt !== undefined && current.preferenceAt >= preference.at) return current;
  if (preference.value === 'stop') {
    const added = withOptOutAdded(current, { phoneNumber: preference.phoneNumber, source: 'user-preference', now: preference.now });
    return { ...added, preferenceAt: preference.at };
  }
  if (isOptedOut(current) && !liftedByResume.has(current.source)) return { ...current, preferenceAt: preference.at };
  return { ...keywordTimeOf(current), state: 'opted-in', phoneNumber: current?.phoneNumber ?? preference.phoneNumber, preferenceAt: preference.at };
}
