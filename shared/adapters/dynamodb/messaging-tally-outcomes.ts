/**
 * A recipient's outcomes inside its job's tally item (docs/DATA-MODEL.md "Tally items",
 * docs/OUTCOMES.md), beside Meta's delivery facts (messaging-tally-facts.ts) of the same 50
 * recipients. Four sets, written only with `ADD` (a duplicate member is a no-op, any order gives the
 * same item):
 *
 *   oy, oc, oo  number sets of `slot × 1e10 + epoch seconds`: attributed replies, counted clicks,
 *               STOP replies attributed to the send. The earliest member is the first time; the
 *               members of a slot in `oc` are its clicks (two clicks within one second count once).
 *   ob          string set of taps `<slot>:<epoch>:<button index>:<payload>` (payload cut to
 *               MAX_KEPT_PAYLOAD characters; the index is -1 when no button of the message matched).
 */
import { MAX_KEPT_PAYLOAD, type OutcomeEvent, type OutcomeFacts } from '../../outcomes/outcome-facts';
import { TALLY_BUCKET_SIZE } from '../../delivery/recipient-status';
import { MalformedMessagingItemError } from './messaging-table';

type Item = Record<string, unknown>;

export const OUTCOME_SETS = { reply: 'oy', click: 'oc', 'opt-out': 'oo', button: 'ob' } as const satisfies Record<OutcomeEvent['kind'], string>;
const MEMBER_SCALE = 1e10;
const epochOf = (at: Date) => Math.floor(at.getTime() / 1000);
const isoOf = (epoch: number) => new Date(epoch * 1000).toISOString();
const membersOf = (value: unknown): unknown[] => (value instanceof Set ? [...(value as Set<unknown>)] : Array.isArray(value) ? value : []);

/**
 * The set and member one outcome of the recipient in `slot` adds.
 *
 * @example outcomeMemberOf(7, { kind: 'click', at: new Date('2026-12-01T10:00:00Z') }); // { set: 'oc', member: 71764583200 }
 */
export function outcomeMemberOf(slot: number, event: OutcomeEvent): { set: string; member: number | string } {
  if (!Number.isInteger(slot) || slot < 0 || slot >= TALLY_BUCKET_SIZE) throw new RangeError(`slot ${slot} is outside a tally item`);
  const set = OUTCOME_SETS[event.kind];
  if (event.kind === 'button') return { set, member: `${slot}:${epochOf(event.at)}:${event.index}:${event.payload.slice(0, MAX_KEPT_PAYLOAD)}` };
  return { set, member: slot * MEMBER_SCALE + epochOf(event.at) };
}

/** Whether a stored set (as the document client returns it) already holds the member. */
export function setHolds(stored: unknown, member: number | string): boolean {
  return membersOf(stored).some((value) => value === member || (typeof value === 'number' && Number(value) === member));
}

/**
 * Whether a stored number set (`oy`, `oc`, `oo`) holds any member of `slot`: the recipient already had that outcome.
 *
 * @example slotHasMember(new Set([71764583200]), 7); // true
 */
export function slotHasMember(stored: unknown, slot: number): boolean {
  return membersOf(stored).some((value) => Math.floor(Number(value) / MEMBER_SCALE) === slot);
}

function checkedSlot(slot: number, item: Item): number {
  if (!Number.isInteger(slot) || slot < 0 || slot >= TALLY_BUCKET_SIZE)
    throw new MalformedMessagingItemError(`Stored tally ${String(item.sk)} holds an outcome of slot ${slot}`);
  return slot;
}

/**
 * Every slot's outcomes in a stored tally item, by slot (0–49). Anything else on the item is ignored.
 *
 * @example outcomeSlotsOf(item).get(3)?.clicks // 2
 */
export function outcomeSlotsOf(item: Item): Map<number, OutcomeFacts> {
  const slots = new Map<
    number,
    { repliedAt?: number; firstClick?: number; clicks: number; optedOut?: number; taps: Map<number, { payload: string; epoch: number }> }
  >();
  const slotOf = (slot: number) => {
    let state = slots.get(slot);
    if (!state) slots.set(slot, (state = { clicks: 0, taps: new Map() }));
    return state;
  };
  const timed = (set: string, apply: (state: ReturnType<typeof slotOf>, epoch: number) => void) => {
    for (const raw of membersOf(item[set])) {
      const member = Number(raw);
      const slot = checkedSlot(Math.floor(member / MEMBER_SCALE), item);
      apply(slotOf(slot), member - slot * MEMBER_SCALE);
    }
  };
  timed(OUTCOME_SETS.reply, (state, epoch) => void (state.repliedAt = Math.min(state.repliedAt ?? epoch, epoch)));
  timed(OUTCOME_SETS['opt-out'], (state, epoch) => void (state.optedOut = Math.min(state.optedOut ?? epoch, epoch)));
  timed(OUTCOME_SETS.click, (state, epoch) => {
    state.firstClick = Math.min(state.firstClick ?? epoch, epoch);
    state.clicks += 1;
  });
  for (const raw of membersOf(item[OUTCOME_SETS.button])) {
    const parts = /^(\d+):(\d+):(-?\d+):([\s\S]*)$/.exec(String(raw));
    if (!parts) throw new MalformedMessagingItemError(`Stored tally ${String(item.sk)} holds a malformed tap`);
    const state = slotOf(checkedSlot(Number(parts[1]), item));
    const [epoch, index, payload] = [Number(parts[2]), Number(parts[3]), parts[4]!];
    const known = state.taps.get(index);
    if (!known || epoch < known.epoch || (epoch === known.epoch && payload < known.payload)) state.taps.set(index, { payload, epoch });
  }
  return new Map(
    [...slots].map(([slot, state]): [number, OutcomeFacts] => {
      const taps = [...state.taps].map(([index, { payload, epoch }]) => ({ index, payload, epoch })).sort((a, b) => a.epoch - b.epoch || a.index - b.index);
      return [
        slot,
        {
          ...(state.repliedAt !== undefined && { repliedAt: isoOf(state.repliedAt) }),
          ...(taps.length > 0 && { buttonTaps: taps.map(({ index, payload, epoch }) => ({ index, payload, at: isoOf(epoch) })) }),
          ...(state.firstClick !== undefined && { firstClickAt: isoOf(state.firstClick), clicks: state.clicks }),
          ...(state.optedOut !== undefined && { optedOutAt: isoOf(state.optedOut) }),
        },
      ];
    }),
  );
}
