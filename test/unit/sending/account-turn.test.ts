/** The account's turn (shared/sending/account-turn.ts): who may send, and when a refused chunk looks again. */
import { nextLookAt, turnGranted, type AccountTurnRequest } from '../../../shared/sending/account-turn';

const now = 1_800_000_000_000;
const request: AccountTurnRequest = { owner: 'job#2', nowMs: now, untilMs: now + 12_500, overlapMs: 1_500, rampMs: 3_000, laneMs: 1_500 };
const turnOf = (startedAgoMs: number, endsInMs: number, owner = 'job#1') => ({ owner, startedAt: now - startedAgoMs, until: now + endsInMs });

describe("the account's turn", () => {
  it('is granted on an idle account, to its own holder, and after the holder’s turn ends once its slots drain', () => {
    expect(turnGranted({}, request)).toBe(true);
    expect(turnGranted({ turn: turnOf(500, 10_000, 'job#2'), nextFreeAt: now + 5_000 }, request)).toBe(true);
    expect(turnGranted({ turn: turnOf(11_000, 1_000), nextFreeAt: now + 1_000 }, request)).toBe(true);
    expect(turnGranted({ turn: turnOf(11_000, 1_000), nextFreeAt: now + 4_000 }, request)).toBe(false);
  });

  it('is refused while another chunk’s turn runs, unless it has ramped and leaves gaps in the schedule', () => {
    expect(turnGranted({ turn: turnOf(500, 10_000) }, request)).toBe(false);
    expect(turnGranted({ turn: turnOf(5_000, 10_000), nextFreeAt: now + 800 }, request)).toBe(false);
    expect(turnGranted({ turn: turnOf(5_000, 10_000), nextFreeAt: now - 200 }, request)).toBe(true);
  });

  it('tells a refused chunk to look again when a young turn has ramped, as an established one ends, or as an ended one’s slots drain', () => {
    expect(nextLookAt({ granted: false, turn: turnOf(1_000, 10_000) }, request)).toBe(now + 2_000);
    expect(nextLookAt({ granted: false, turn: turnOf(5_000, 10_000) }, request)).toBe(now + 8_500);
    expect(nextLookAt({ granted: false, turn: turnOf(12_000, 500), bookedUntil: now + 4_000 }, request)).toBe(now + 2_500);
    expect(nextLookAt({ granted: false, bookedUntil: now + 4_000 }, request)).toBeUndefined();
  });
});
