/**
 * A campaign's holdout (docs/OUTCOMES.md "Holdout and lift"): a random share of its sendable
 * audience is never sent, so the inbound messages of those people within the attribution window
 * tell what the campaign's replies would have been without it.
 *
 * The draw is deterministic: the first 32 bits of SHA-256 over the campaign id and the person's
 * key (the one key expansion gives each person, expansion-members.ts), read as a fraction of 2^32,
 * held out when below `percent` / 100. So a page expanded again (a redelivery, a crash) holds out
 * the same people, a person met under two forms or audiences is drawn once (one claim per person),
 * and nobody can be both sent and held out. Another campaign draws afresh.
 */
import * as v from 'valibot';
import { sha256 } from '../crypto/hashing';

/** The largest share a campaign may hold out: at least half its audience is always sent. */
export const MAX_HOLDOUT_PERCENT = 50;

const oneDecimal = (percent: number): boolean => Math.abs(percent * 10 - Math.round(percent * 10)) < 1e-9;

/** `holdout` of the campaign create body: `{ percent }`, more than 0, at most 50, at most one decimal. */
export const holdoutSchema = v.strictObject(
  {
    percent: v.pipe(
      v.number('must be a number'),
      v.check((percent) => percent > 0, 'must be more than 0'),
      v.maxValue(MAX_HOLDOUT_PERCENT, `must be at most ${MAX_HOLDOUT_PERCENT}`),
      v.check(oneDecimal, 'must have at most one decimal'),
    ),
  },
  'must hold only percent',
);

export type CampaignHoldout = v.InferOutput<typeof holdoutSchema>;

const DRAW_SCALE = 2 ** 32;

/**
 * Where the person falls in the campaign's draw: a number in [0, 100), the same on every call.
 *
 * @example
 * holdoutDrawOf('cmp_01J', '919800000001'); // e.g. 37.2519…
 */
export function holdoutDrawOf(campaignId: string, personKey: string): number {
  return (sha256(`${campaignId}\n${personKey}`).readUInt32BE(0) / DRAW_SCALE) * 100;
}

/**
 * Whether the campaign holds the person out (never sent, listed HELD_OUT).
 *
 * @example
 * isHeldOut({ percent: 10 }, 'cmp_01J', '919800000001'); // true for about 1 person in 10
 * isHeldOut(undefined, 'cmp_01J', '919800000001'); // false: no holdout
 */
export function isHeldOut(holdout: CampaignHoldout | undefined, campaignId: string, personKey: string): boolean {
  return holdout !== undefined && holdoutDrawOf(campaignId, personKey) < holdout.percent;
}
