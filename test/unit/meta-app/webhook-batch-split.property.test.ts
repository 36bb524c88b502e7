/**
 * The splitter's promise over arbitrary batches (fast-check): every part fits the budget, and the
 * parts together are the batch: every message, status and error once, with its entry, field and
 * metadata, beside every contact it names; a part carries no contact its own elements do not name
 * (but the contacts nothing names, which stay with the change's first part), so no contact is lost.
 */
import fc from 'fast-check';
import { splitWebhookBatch } from '../../../shared/meta-app/webhook-batch-split';

type Json = Record<string, unknown>;
type Change = { field: string; value: Json };
type Batch = { object: string; entry: Array<{ id: string; changes: Change[] }> };

const escapedBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;
const LISTS = ['statuses', 'messages', 'errors'] as const;

/** A user: a BSUID always, a number when Meta shows it. */
const userOf = (index: number, withPhone: boolean) => ({
  userId: `BR.${(index * 7919).toString(36)}${index}`,
  ...(withPhone ? { phone: `5511${String(index).padStart(8, '0')}` } : {}),
});
type User = ReturnType<typeof userOf>;
const contactOf = (user: User, name: string) => ({ profile: { name }, ...(user.phone ? { wa_id: user.phone } : {}), user_id: user.userId });

/** Texts of any length up to 300 with characters that JSON escapes or UTF-8 widens (built, not drawn per character: cheaper). */
const textArb = fc.tuple(fc.nat(300), fc.constantFrom('a', 'é"', '\\☕ ', 'z\u0001')).map(([length, unit]) => unit.repeat(length).slice(0, length));
const elementArb = fc.record({ kind: fc.constantFrom('message', 'status', 'error'), user: fc.nat(40), text: textArb });
const changeArb = fc.record({
  elements: fc.array(elementArb, { maxLength: 80, size: 'max' }),
  orphans: fc.uniqueArray(fc.integer({ min: 100, max: 140 }), { maxLength: 3 }),
  phones: fc.array(fc.boolean(), { minLength: 141, maxLength: 141 }),
  name: fc.string({ maxLength: 40 }),
});
const batchArb = fc.array(fc.array(changeArb, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 3 });

function batchOf(
  entries: Array<Array<{ elements: Array<{ kind: string; user: number; text: string }>; orphans: number[]; phones: boolean[]; name: string }>>,
): Batch {
  let next = 0;
  return {
    object: 'whatsapp_business_account',
    entry: entries.map((changes, e) => ({
      id: `10229012934039${e}`,
      changes: changes.map((change, c) => {
        const user = (index: number) => userOf(index, change.phones[index]!);
        const lists: Record<string, Json[]> = { statuses: [], messages: [], errors: [] };
        const named = new Set<number>();
        for (const element of change.elements) {
          const who = user(element.user);
          const id = `wamid.${next++}`;
          if (element.kind === 'message') {
            named.add(element.user);
            lists.messages!.push({
              ...(who.phone ? { from: who.phone } : {}),
              from_user_id: who.userId,
              id,
              timestamp: '1767225600',
              type: 'text',
              text: { body: element.text },
            });
          } else if (element.kind === 'status') {
            named.add(element.user);
            lists.statuses!.push({
              id,
              status: 'delivered',
              timestamp: '1767225700',
              ...(who.phone ? { recipient_id: who.phone } : {}),
              recipient_user_id: who.userId,
            });
          } else {
            lists.errors!.push({ code: 130429, title: element.text });
          }
        }
        const contacts = [...named, ...change.orphans].map((index) => contactOf(user(index), change.name));
        const value: Json = { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550001111', phone_number_id: `pn${e}-${c}` }, contacts };
        for (const list of LISTS) if (lists[list]!.length > 0) value[list] = lists[list];
        return { field: 'messages', value };
      }),
    })),
  };
}

/** The oracle: which contacts an element names, by Meta's fields (independent of the splitter's own matching). */
const names = (element: Json, contact: Json): boolean =>
  (contact.wa_id !== undefined && (element.from === contact.wa_id || element.recipient_id === contact.wa_id)) ||
  element.from_user_id === contact.user_id ||
  element.recipient_user_id === contact.user_id;

/** Every element with where it stood, and the contacts per change (by phone_number_id, unique per change here). */
function contentOf(batches: Batch[]) {
  const elements: string[] = [];
  const contacts = new Map<string, Set<string>>();
  const misplaced: string[] = [];
  for (const batch of batches) {
    for (const entry of batch.entry) {
      for (const { field, value } of entry.changes) {
        const key = JSON.stringify(value.metadata);
        const partContacts = (value.contacts as Json[] | undefined) ?? [];
        const kept = contacts.get(key) ?? new Set<string>();
        for (const contact of partContacts) kept.add(JSON.stringify(contact));
        contacts.set(key, kept);
        for (const list of LISTS) {
          for (const element of (value[list] as Json[] | undefined) ?? []) {
            elements.push(JSON.stringify([entry.id, field, key, list, element]));
          }
        }
        misplaced.push(
          ...partContacts
            .filter((contact) => !LISTS.some((list) => ((value[list] as Json[] | undefined) ?? []).some((element) => names(element, contact))))
            .map((contact) => `${key}:${JSON.stringify(contact)}`),
        );
      }
    }
  }
  return { elements: elements.sort(), contacts, misplaced };
}

describe('splitting any signed batch (property)', () => {
  it('every part fits; the parts hold every element once, beside the contacts it names, and no contact more than their elements name', () => {
    fc.assert(
      fc.property(batchArb, fc.integer({ min: 4_000, max: 12_000 }), (shape, budget) => {
        const batch = batchOf(shape);
        const text = JSON.stringify(batch);
        const parts = splitWebhookBatch(text, { size: escapedBytes, budget });
        expect(parts).toBeDefined();
        for (const part of parts!) expect(escapedBytes(part)).toBeLessThanOrEqual(budget);
        const split = parts!.map((part) => JSON.parse(part) as Batch);
        const whole = contentOf([batch]);
        const together = contentOf(split);
        expect(together.elements).toEqual(whole.elements);
        expect(together.contacts).toEqual(whole.contacts);
        // Each element sits beside every contact of its change that names it.
        const originals = new Map(batch.entry.flatMap((entry) => entry.changes).map((change) => [JSON.stringify(change.value.metadata), change]));
        for (const part of split) {
          for (const { value } of part.entry.flatMap((entry) => entry.changes)) {
            const original = originals.get(JSON.stringify(value.metadata))!;
            const beside = new Set(((value.contacts as Json[] | undefined) ?? []).map((contact) => JSON.stringify(contact)));
            for (const list of LISTS) {
              for (const element of (value[list] as Json[] | undefined) ?? []) {
                for (const contact of original.value.contacts as Json[]) if (names(element, contact)) expect(beside.has(JSON.stringify(contact))).toBe(true);
              }
            }
          }
        }
        // The contacts a part holds that none of its elements names are exactly those nothing in the batch names, each once.
        expect([...together.misplaced].sort()).toEqual([...whole.misplaced].sort());
      }),
      { numRuns: 60 },
    );
  });
});
