/**
 * Meta's facts inside a job's tally items (docs/DATA-MODEL.md "Tally items"): what every status
 * event of a broadcast recipient adds, stored beside the worker's outcome codes (`r<00000>`) of the
 * same 50 recipients, so a webhook batch costs one UpdateItem per tally item.
 *
 * Five sets per item, written only with `ADD` (a set union: a duplicate member is a no-op, any order
 * gives the same item, concurrent batches never overwrite each other):
 *
 *   es, ed, er  number sets, one per stage (sent, delivered, read): slot × 1e10 + Meta's epoch
 *               seconds, slot = the recipient's place in its item (index − bucket × 50, 0–49)
 *   ef          string set of failures: `<slot>:<epoch>[:<Meta code>:<title>]`
 *   ep          string set of pricing per stage: `<slot><s|d|r>:<category>:<calling code>`, then
 *               `:<type>:<billable 1|0>:<model>` only when not the default (regular, billable, PMP);
 *               known categories as one upper-case letter
 *   em          string set `<slot>:<message id>`: the message id an event taught a recipient whose
 *               outcome had none (UNKNOWN), for the recipients list; rare, so the item stays small
 *
 * Read back, per slot and stage the earliest timestamp is the fact ("first seen", whatever order the
 * events came in); of several failures the earliest, of several pricings of one stage the smallest
 * member. A full item (50 recipients, sent + delivered + read, two priced stages, outcome codes)
 * is about 2.3 KB (test/integration/delivery/tally-fact-writes.test.ts checks < 2.4 KB).
 */
import { pricingAttributeOf, type MessagePricing } from '../../delivery/message-pricing';
import { TALLY_BUCKET_SIZE, type DeliveryFacts, type DeliveryStage } from '../../delivery/recipient-status';
import { MalformedMessagingItemError } from './messaging-table';

type Item = Record<string, unknown>;
type TimedStage = Exclude<DeliveryStage, 'failed'>;
type PricedLetter = 's' | 'd' | 'r';

export const STAGE_SETS: Record<TimedStage, string> = { sent: 'es', delivered: 'ed', read: 'er' };
export const FAILURE_SET = 'ef';
export const PRICING_SET = 'ep';
export const MESSAGE_ID_SET = 'em';
const MEMBER_SCALE = 1e10;
const LETTER_OF: Record<TimedStage, PricedLetter> = { sent: 's', delivered: 'd', read: 'r' };
const STAGE_OF: Record<PricedLetter, TimedStage> = { s: 'sent', d: 'delivered', r: 'read' };
const CATEGORY_LETTERS: Record<string, string> = {
  marketing: 'M',
  utility: 'U',
  authentication: 'A',
  authentication_international: 'I',
  service: 'S',
  marketing_lite: 'L',
};
const CATEGORY_OF: Record<string, string> = Object.fromEntries(Object.entries(CATEGORY_LETTERS).map(([category, letter]) => [letter, category]));

/** One recipient's facts as the sets hold them: what decides whether an event adds anything. */
export interface SlotState {
  times: Partial<Record<TimedStage, number>>;
  failure?: { epoch: number; member: string };
  pricing: Partial<Record<PricedLetter, string>>;
  /** A message id learned from an event (the smallest member, if Meta ever named two). */
  messageId?: string;
}

/** Members to add to one item's sets. */
export interface FactMembers {
  numbers: Record<string, number[]>;
  strings: Record<string, string[]>;
}

/** What the writer needs of a status event (ports.ts' StatusEvent). */
export interface FactEventInput {
  stage: DeliveryStage;
  timestamp: Date;
  error?: { code: number; title: string };
  pricing?: MessagePricing;
}

const emptySlot = (): SlotState => ({ times: {}, pricing: {} });
const epochOf = (at: Date) => Math.floor(at.getTime() / 1000);
const setMembers = (value: unknown): unknown[] => (value instanceof Set ? [...(value as Set<unknown>)] : []);

/** The slot of a member, checked: a member of another item's range would be counted twice. */
function checkedSlot(slot: number, item: Item): number {
  if (!Number.isInteger(slot) || slot < 0 || slot >= TALLY_BUCKET_SIZE)
    throw new MalformedMessagingItemError(`Stored tally ${String(item.sk)} holds a fact of slot ${slot}`);
  return slot;
}

/** Keeps the earlier of two failures (by time, then by member). */
const earlierFailure = (a: SlotState['failure'], b: NonNullable<SlotState['failure']>) =>
  !a || b.epoch < a.epoch || (b.epoch === a.epoch && b.member < a.member) ? b : a;

/**
 * Every slot's state from a stored tally item's sets (anything else on the item is ignored).
 *
 * @example slotStatesOf(item).get(7)?.times.read // epoch seconds of recipient bucket × 50 + 7's first `read`
 */
export function slotStatesOf(item: Item | undefined): Map<number, SlotState> {
  const states = new Map<number, SlotState>();
  if (!item) return states;
  const slotOf = (slot: number) => {
    let state = states.get(slot);
    if (!state) states.set(slot, (state = emptySlot()));
    return state;
  };
  for (const [stage, attribute] of Object.entries(STAGE_SETS) as Array<[TimedStage, string]>) {
    for (const member of setMembers(item[attribute])) {
      const value = Number(member);
      const state = slotOf(checkedSlot(Math.floor(value / MEMBER_SCALE), item));
      const epoch = value % MEMBER_SCALE;
      if (state.times[stage] === undefined || epoch < state.times[stage]!) state.times[stage] = epoch;
    }
  }
  for (const member of setMembers(item[FAILURE_SET]).map(String)) {
    const [slot, epoch] = member.split(':');
    const state = slotOf(checkedSlot(Number(slot), item));
    state.failure = earlierFailure(state.failure, { epoch: Number(epoch), member });
  }
  for (const member of setMembers(item[PRICING_SET]).map(String)) {
    const head = /^(\d+)([sdr]):/.exec(member);
    if (!head) throw new MalformedMessagingItemError(`Stored tally ${String(item.sk)} holds a malformed pricing fact`);
    const state = slotOf(checkedSlot(Number(head[1]), item));
    const letter = head[2] as PricedLetter;
    if (state.pricing[letter] === undefined || member < state.pricing[letter]!) state.pricing[letter] = member;
  }
  for (const member of setMembers(item[MESSAGE_ID_SET]).map(String)) {
    const colon = member.indexOf(':');
    const state = slotOf(checkedSlot(Number(member.slice(0, colon)), item));
    const messageId = member.slice(colon + 1);
    if (state.messageId === undefined || messageId < state.messageId) state.messageId = messageId;
  }
  return states;
}

/**
 * Adds a message id learned from an event to a slot (an outcome without one), unless it has one.
 *
 * @example addMessageId(state, 3, 'wamid.x', members) // members.strings.em = ['3:wamid.x']
 */
export function addMessageId(state: SlotState, slot: number, messageId: string, members: FactMembers): void {
  if (state.messageId !== undefined && state.messageId <= messageId) return;
  state.messageId = messageId;
  (members.strings[MESSAGE_ID_SET] ??= []).push(`${slot}:${messageId}`);
}

function pricingMember(slot: number, stage: TimedStage, pricing: MessagePricing, callingCode: string | undefined): string {
  const category = CATEGORY_LETTERS[pricing.category] ?? pricing.category;
  const usual = pricing.type === 'regular' && pricing.billable && pricing.pricingModel === 'PMP' && pricing.subtype === undefined;
  // Meta's open strings hold no `:` (pricingOf keeps letters, digits and `_`); a subtype is a fourth extra field, absent before it existed.
  const extra = usual
    ? ''
    : `:${pricing.type}:${pricing.billable ? 1 : 0}:${pricing.pricingModel}${pricing.subtype === undefined ? '' : `:${pricing.subtype}`}`;
  return `${slot}${LETTER_OF[stage]}:${category}:${callingCode ?? ''}${extra}`;
}

function decodePricing(member: string): { pricing: MessagePricing; callingCode?: string } {
  const [, category = '', callingCode = '', type, billable, pricingModel, subtype] = member.split(':');
  const pricing: MessagePricing =
    type === undefined
      ? { category: CATEGORY_OF[category] ?? category, type: 'regular', billable: true, pricingModel: 'PMP' }
      : { category: CATEGORY_OF[category] ?? category, type, billable: billable === '1', pricingModel: pricingModel ?? 'PMP', ...(subtype ? { subtype } : {}) };
  return { pricing, ...(callingCode ? { callingCode } : {}) };
}

/**
 * Adds one event to a slot's state and says which members that took: none when the event changes
 * nothing (its stage already has an earlier or equal time, its pricing and failure are known).
 *
 * @example addEvent(state, 3, event, '44', members) // true: new fact, members hold what to ADD
 */
export function addEvent(state: SlotState, slot: number, event: FactEventInput, callingCode: string | undefined, members: FactMembers): boolean {
  let added = false;
  const epoch = epochOf(event.timestamp);
  if (event.stage === 'failed') {
    const member = event.error ? `${slot}:${epoch}:${event.error.code}:${event.error.title}` : `${slot}:${epoch}`;
    const winner = earlierFailure(state.failure, { epoch, member });
    if (winner.member === member && state.failure?.member !== member) {
      state.failure = winner;
      (members.strings[FAILURE_SET] ??= []).push(member);
      added = true;
    }
    return added;
  }
  const known = state.times[event.stage];
  if (known === undefined || epoch < known) {
    state.times[event.stage] = epoch;
    (members.numbers[STAGE_SETS[event.stage]] ??= []).push(slot * MEMBER_SCALE + epoch);
    added = true;
  }
  if (event.pricing) {
    const member = pricingMember(slot, event.stage, event.pricing, callingCode);
    const letter = LETTER_OF[event.stage];
    const stored = state.pricing[letter];
    if (stored === undefined || member < stored) {
      state.pricing[letter] = member;
      (members.strings[PRICING_SET] ??= []).push(member);
      added = true;
    }
  }
  return added;
}

/**
 * A slot's state as the domain's facts (ISO times, Meta's error, pricing per stage) and the
 * recipient's calling code (carried by its pricing, for the summary's cost per country).
 *
 * @example factsOfSlot(state).facts.deliveredAt // '2026-11-27T08:00:05.000Z'
 */
export function factsOfSlot(state: SlotState): { facts: DeliveryFacts; callingCode?: string; messageId?: string } {
  const facts: DeliveryFacts = {};
  let callingCode: string | undefined;
  for (const [stage, epoch] of Object.entries(state.times) as Array<[TimedStage, number]>) facts[`${stage}At`] = new Date(epoch * 1000).toISOString();
  if (state.failure) {
    const [, epoch, code, ...title] = state.failure.member.split(':');
    facts.failedAt = new Date(Number(epoch) * 1000).toISOString();
    if (code !== undefined && code !== '') {
      facts.metaErrorCode = Number(code);
      facts.metaErrorTitle = title.join(':');
    }
  }
  for (const [letter, member] of Object.entries(state.pricing) as Array<[PricedLetter, string]>) {
    const decoded = decodePricing(member);
    facts[pricingAttributeOf(STAGE_OF[letter])!] = decoded.pricing;
    callingCode ??= decoded.callingCode;
  }
  return { facts, ...(callingCode ? { callingCode } : {}), ...(state.messageId ? { messageId: state.messageId } : {}) };
}

/**
 * The UpdateItem of one tally item's new members: `ADD` per set (names `#s<n>`, values `:s<n>`)
 * and the item's expiry when absent. Undefined when there is nothing to add.
 *
 * @example factMembersUpdate(key, members, expiresAt) // { Key, UpdateExpression: 'ADD #s0 :s0 SET …', … }
 */
export function factMembersUpdate(key: { pk: string; sk: string }, members: FactMembers, expiresAt: number) {
  const sets: Array<[string, Set<number> | Set<string>]> = [
    ...Object.entries(members.numbers).map(([name, values]) => [name, new Set(values)] as [string, Set<number>]),
    ...Object.entries(members.strings).map(([name, values]) => [name, new Set(values)] as [string, Set<string>]),
  ].filter(([, values]) => values.size > 0);
  if (sets.length === 0) return undefined;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':expiresAt': expiresAt };
  const additions = sets.map(([name, set], position) => {
    names[`#s${position}`] = name;
    values[`:s${position}`] = set;
    return `#s${position} :s${position}`;
  });
  return {
    Key: key,
    UpdateExpression: `ADD ${additions.join(', ')} SET expiresAt = if_not_exists(expiresAt, :expiresAt)`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
