/** The dry run's answer and the cost amounts it and the status summary carry (docs/BROADCAST.md "Dry run", "Cost per campaign"). */
import { arrayOf, bool, int, obj, str, type JsonSchema } from './schema-builders';
import { costPerOutcomeProperties } from './outcome-response-schemas';
import { sendWindowPlanSchema } from './send-window-response-schemas';

const decimal: JsonSchema = {
  type: 'string',
  pattern: '^\\d+\\.\\d{2,6}$',
  description: 'A decimal amount in `currency` (e.g. "52.90"), summed in integer micro-units',
};
const nullableInt: JsonSchema = { type: ['integer', 'null'] };

/** A template's max price as Meta states it on the template (`optimization_spec.bid_amount`, `bid_strategy`). */
const maxPrice: JsonSchema = {
  ...obj({ bidAmount: str, bidStrategy: str, upTo: { const: true } }, ['bidAmount']),
  description: 'The template has a max price: Meta bills each delivered message up to `bidAmount` (docs/BROADCAST.md "Dry run")',
};

/** The estimate of a dry run, from the operator's rate card (absent when none is set). */
export const estimatedCost: JsonSchema = {
  ...obj(
    {
      currency: str,
      amount: decimal,
      priced: int,
      unpriced: int,
      byCategory: { type: 'object', additionalProperties: obj({ count: int, amount: decimal }) },
      upTo: { const: true },
      maxPrice,
    },
    ['currency', 'amount', 'priced', 'unpriced', 'byCategory'],
  ),
  description:
    'The template category’s rate for each sendable recipient by its country calling code (`unpriced`: no row of the card prices it, not in `amount`)',
};

/** The status summary's cost of the billable recipients (absent without a rate card or before Meta's pricing). */
export const campaignCost: JsonSchema = {
  ...obj(
    {
      currency: str,
      billed: int,
      amount: decimal,
      byCategory: { type: 'object', additionalProperties: obj({ billed: int, amount: decimal }) },
      unpriced: int,
      ...costPerOutcomeProperties(decimal),
    },
    ['currency', 'billed', 'amount', 'byCategory'],
  ),
  description:
    'Billable recipients (Meta’s pricing from the status webhooks) at the operator’s rate card for their calling code and category; `unpriced`: billable recipients no row prices (docs/BROADCAST.md "Cost per campaign")',
};

/** The sender's month of service messages (Meta's free tier: 1,000 delivered per number and UTC month). */
export const serviceMessages: JsonSchema = {
  ...obj({ month: str, delivered: int, freeRemaining: int }),
  description:
    'The sending number’s service (free-form) messages delivered this UTC month (`YYYY-MM`) as counted from Meta’s status webhooks, and what is left of Meta’s 1,000 free; beyond them Meta bills each at the market’s utility rate (docs/DELIVERY-STATUS.md "Pricing values and service messages")',
};

/** The `data` of a `?dryRun=true` answer. */
export const dryRunResult: JsonSchema = obj(
  {
    dryRun: { const: true },
    totals: obj({ received: int, sendable: int, optedOut: int, duplicates: int, invalid: int }),
    invalid: arrayOf(obj({ index: int, field: str, rule: str })),
    duplicates: arrayOf(obj({ index: int, duplicateOf: int })),
    optedOut: arrayOf(obj({ index: int })),
    messagingLimit: obj({ tier: str, limit: nullableInt, usedLast24h: int, headroom: nullableInt, newRecipients: int, wouldExceed: bool }),
    estimatedCost,
    serviceMessages,
    maxPrice,
    sendWindow: sendWindowPlanSchema,
  },
  ['dryRun', 'totals', 'invalid', 'duplicates', 'optedOut', 'messagingLimit'],
);

export const dryRunExample = {
  dryRun: true,
  totals: { received: 1001, sendable: 997, optedOut: 1, duplicates: 1, invalid: 2 },
  invalid: [
    { index: 3, field: 'data[3].toPhoneNumber', rule: 'must contain digits only' },
    { index: 7, field: 'data[7].templateParams', rule: 'has 1 values; template order_update needs exactly 2 ({{1}}..{{2}})' },
  ],
  duplicates: [{ index: 12, duplicateOf: 11 }],
  optedOut: [{ index: 40 }],
  messagingLimit: { tier: 'TIER_10K', limit: 10000, usedLast24h: 1200, headroom: 8800, newRecipients: 997, wouldExceed: false },
  estimatedCost: { currency: 'USD', amount: '1.3958', priced: 997, unpriced: 0, byCategory: { utility: { count: 997, amount: '1.3958' } } },
  serviceMessages: { month: '2026-11', delivered: 412, freeRemaining: 588 },
};
