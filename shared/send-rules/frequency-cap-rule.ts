/**
 * The frequency cap's rule over one person's counted sends (docs/CAMPAIGNS.md "Frequency caps"),
 * pure: which sends still count, whether one more fits, and when a place frees. The DynamoDB
 * adapter and the in-memory fake both decide with it, so they cannot differ; expiry is judged here
 * in code (dynalite has no TTL, and DynamoDB's TTL deletes late).
 */
import type { CapReservation } from './ports';

/** One person's counted sends: send id → the send's time (epoch ms). */
export type CountedSends = Readonly<Record<string, number>>;

const DAY_MS = 86_400_000;

/** The length of a cap's window in milliseconds. */
export const capWindowMs = (perDays: number): number => perDays * DAY_MS;

/**
 * The sends still inside the window ending at `atMs` (a send exactly `perDays` old has left it).
 *
 * @example
 * liveSends({ a: 0, b: 5 * 86_400_000 }, 7 * 86_400_000 + 1, 7); // { b: 432000000 }
 */
export function liveSends(sends: CountedSends, atMs: number, perDays: number): Record<string, number> {
  const from = atMs - capWindowMs(perDays);
  return Object.fromEntries(Object.entries(sends).filter(([, at]) => at > from));
}

/** What a reservation decides: the answer, and the sends to store when it counts a new one. */
export type CapDecision = { answer: CapReservation; store?: Record<string, number> };

/**
 * Decides a reservation of `sendId` at `atMs` against the stored sends: already counted (a repeat)
 * is reserved without a write; a free place counts it (the expired sends are dropped from what is
 * stored); a full window refuses, with the time the place frees (the oldest send that must leave
 * it, plus the window).
 *
 * @example
 * decideReservation({}, 'job_1#0', 0, { count: 1, perDays: 7 }); // { answer: { reserved: true }, store: { 'job_1#0': 0 } }
 * decideReservation({ 'job_1#0': 0 }, 'job_2#0', 1, { count: 1, perDays: 7 }); // { answer: { reserved: false, allowedAt: 1970-01-08T00:00:00.000Z } }
 */
export function decideReservation(sends: CountedSends, sendId: string, atMs: number, limit: { count: number; perDays: number }): CapDecision {
  if (Object.hasOwn(sends, sendId)) return { answer: { reserved: true } };
  const live = liveSends(sends, atMs, limit.perDays);
  const times = Object.values(live).sort((a, b) => a - b);
  if (times.length < limit.count) return { answer: { reserved: true }, store: { ...live, [sendId]: atMs } };
  // `count` places and more sends than that (a cap lowered since): the place frees when all but count - 1 have left.
  const leaving = times[times.length - limit.count]!;
  return { answer: { reserved: false, allowedAt: new Date(leaving + capWindowMs(limit.perDays)) } };
}
