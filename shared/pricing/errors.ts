/** Errors of the rate card (docs/BROADCAST.md "Cost per campaign"). */

/** A rate card file that breaks a rule; the message names the field and the rule. */
export class InvalidRateCardError extends Error {
  override readonly name = 'InvalidRateCardError';
  readonly code = 'INVALID_RATE_CARD';
}
