/**
 * Values API Gateway puts in a proxy event's `requestContext` that a local gateway has to make up:
 * stable short ids (API, resource, API key) and the request time in API Gateway's format.
 */
import { createHash } from 'node:crypto';

/**
 * A stable id of `length` base-36 characters derived from `seed` (the same seed, the same id).
 *
 * @example
 * shortId('restapi:broadcast', 10); // the broadcast surface's API id, the same on every start
 */
export const shortId = (seed: string, length: number): string => {
  const digest = createHash('sha256').update(seed).digest();
  let out = '';
  for (let i = 0; out.length < length; i++) out += ((digest[i % digest.length] ?? 0) % 36).toString(36);
  return out;
};

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/**
 * API Gateway's `requestTime`: `09/Apr/2015:12:34:56 +0000`.
 *
 * @example
 * formatRequestTime(Date.UTC(2015, 3, 9, 12, 34, 56)); // '09/Apr/2015:12:34:56 +0000'
 */
export const formatRequestTime = (epochMs: number): string => {
  const d = new Date(epochMs);
  return `${pad2(d.getUTCDate())}/${months[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad2(d.getUTCHours())}:${pad2(
    d.getUTCMinutes(),
  )}:${pad2(d.getUTCSeconds())} +0000`;
};
