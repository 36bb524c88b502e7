/**
 * The write tokens of a wallet item (docs/DATA-MODEL.md "Wallet"). Every debit and every credit
 * (a top-up or a refund) stores a token of its own as an attribute of the wallet item, in the same
 * conditional update that changes the balance, and that update refuses to run when its token is
 * already there. When the SDK retries an update the table applied but answered with a timeout,
 * the retry fails its own condition; finding its token on the item tells the adapter the write was
 * its own (applied once), not a refusal, so a wallet is never charged or credited twice for one call.
 *
 * A token is an attribute of its own (`walletWrite_<time>_<random>`), like the rate limiter's, so
 * concurrent writes never overwrite each other's tokens; its value is the balance before the write,
 * which gives the retried call its exact answer even when other writes landed since. The time in
 * the name lets old tokens be pruned without reading anything else.
 */
import { randomBytes } from 'node:crypto';
import type { Wallet } from '../../tenancy/tenancy-entities';

const tokenPrefix = 'walletWrite_';
/** Width of the base-36 epoch milliseconds in a token's name, so names sort by time. */
const timeWidth = 9;

/** Tokens are kept at least this long: far past the SDK's retries of one call (seconds). */
export const walletTokenRetentionMs = 5 * 60_000;
/** Below this many tokens nothing is pruned: a quiet wallet costs no extra write. */
const pruneAbove = 16;
/** A busy wallet keeps at most this many tokens younger than the retention… */
const keepAtMost = 64;
/** …and is pruned down to this many, so a prune happens once per 16 writes rather than on each one. */
const pruneDownTo = 48;

/**
 * A fresh token attribute name for a write made at `at` (ISO time of the write).
 *
 * @example
 * const token = newWalletWriteToken('2026-03-01T09:00:00.000Z'); // 'walletWrite_0lm7…_Xy3…'
 */
export function newWalletWriteToken(at: string): string {
  const time = Math.max(0, Date.parse(at) || 0)
    .toString(36)
    .padStart(timeWidth, '0');
  return `${tokenPrefix}${time}_${randomBytes(9).toString('base64url')}`;
}

const timeOf = (token: string): number => parseInt(token.slice(tokenPrefix.length, tokenPrefix.length + timeWidth), 36);

const isToken = (name: string): boolean => name.startsWith(tokenPrefix);

/**
 * The wallet record of a stored item, without its keys, entity tag or write tokens.
 *
 * @example
 * const wallet = walletOf(result.Attributes);
 */
export function walletOf(item: Record<string, unknown>): Wallet {
  return {
    organizationId: item.organizationId as string,
    balanceMicros: item.balanceMicros as number,
    currency: item.currency as Wallet['currency'],
    updatedAt: item.updatedAt as string,
  };
}

/**
 * The balance before the write that stored `token`, when the item holds it (the write was applied).
 *
 * @example
 * const before = balanceBeforeWrite(item, token); // undefined: this write never applied
 */
export function balanceBeforeWrite(item: Record<string, unknown> | undefined, token: string): number | undefined {
  const value = item?.[token];
  return typeof value === 'number' ? value : undefined;
}

/**
 * Tokens to remove after a write: none while the item holds few; otherwise those past the
 * retention, and on a busy wallet the oldest ones beyond `keepAtMost` (down to `pruneDownTo`).
 *
 * @example
 * const stale = staleWalletTokens(result.Attributes, Date.parse(at));
 * if (stale.length > 0) await removeAttributes(stale);
 */
export function staleWalletTokens(item: Record<string, unknown>, nowMs: number): string[] {
  const tokens = Object.keys(item).filter(isToken).sort();
  if (tokens.length <= pruneAbove) return [];
  const expired = tokens.filter((token) => nowMs - timeOf(token) > walletTokenRetentionMs);
  const kept = tokens.filter((token) => !expired.includes(token));
  const excess = kept.length > keepAtMost ? kept.slice(0, kept.length - pruneDownTo) : [];
  return [...expired, ...excess];
}
