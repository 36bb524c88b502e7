/** Which of Meta's codes hold the account's jobs or stop a country (docs/BROADCAST.md "When Meta refuses the account"). */
import { accountHoldOf, describeReason, knownMetaCodes, retryClassOf, stopsCountry, templateHoldOf } from '../../../shared/sending/failure-reasons';

describe('account and country refusals in the reason table', () => {
  it('names the four account refusals with a pause reason, and nothing else', () => {
    const holding = knownMetaCodes()
      .filter((code) => accountHoldOf(code) !== undefined)
      .sort((a, b) => a - b);
    expect(holding).toEqual([131031, 131042, 131048, 131064]);
    expect([131064, 131042, 131031, 131048].map(accountHoldOf)).toEqual([
      'ACCOUNT_MESSAGING_LIMITED',
      'ACCOUNT_PAYMENT_ISSUE',
      'ACCOUNT_LOCKED',
      'ACCOUNT_SPAM_RATE_LIMITED',
    ]);
    expect(holding.some((code) => templateHoldOf(code) !== undefined)).toBe(false);
    // 131048 keeps its retry class for the /upstream wrapper, which has no job to hold.
    expect(retryClassOf(131048)).toBe('rate-limit');
  });

  it('stops only a country on 130497, with words and an action', () => {
    expect(knownMetaCodes().filter(stopsCountry)).toEqual([130497]);
    expect(accountHoldOf(130497)).toBeUndefined();
    expect(describeReason('130497').text).toBe('The business account may not message users in this country');
    expect(describeReason('131064').action).toContain('resume the broadcast');
  });
});
