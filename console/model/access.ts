/**
 * What a refused read means for the console (docs/CONSOLE.md "Signing out"). Only the key's own
 * check (one read of the campaign list, as at sign-in) signs out: the status of another
 * organization's job is the API's 401 too (the contract's answer), and it must not end the session.
 */

/** Whether an answer to the credential check refuses the key itself: 401 (unknown or revoked key) or 403 (suspended organization). */
export const refusesKey = (status: number): boolean => status === 401 || status === 403;

export type ReadOutcome = 'signed-out' | 'not-found' | 'error';

/**
 * What a failed read of one campaign means, once the key was checked again: a key the check refused
 * signs out; with the key accepted, another organization's job (401) and an unknown one or one
 * outside the key's reach (404 with the API's code) read as not found; anything else (a 429, a 5xx,
 * the gateway's "Route not found") is an error to show and try again.
 *
 * @example
 * campaignReadOutcome({ status: 401 }, true); // 'not-found'
 * campaignReadOutcome({ status: 401 }, false); // 'signed-out'
 */
export function campaignReadOutcome(error: { status: number; routeMissing?: boolean }, keyAccepted: boolean): ReadOutcome {
  if (refusesKey(error.status) && !keyAccepted) return 'signed-out';
  if (error.status === 401 || (error.status === 404 && error.routeMissing !== true)) return 'not-found';
  return 'error';
}
