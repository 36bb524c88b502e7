/** A campaign's lift over its holdout (docs/OUTCOMES.md "Holdout and lift"): the campaign view's and its job summary's `lift`, and the campaign's `holdout`. */
import { bool, int, obj, type JsonSchema } from './schema-builders';

const rate = (description: string): JsonSchema => ({ type: 'number', minimum: 0, maximum: 1, description });

export const liftSchema: JsonSchema = {
  ...obj(
    {
      sentReplyRate: rate('Recipients who replied / recipients sent, rounded to 4 decimals'),
      holdoutInboundRate: rate('Held-out people who wrote in within the attribution window / people held out, rounded to 4 decimals'),
      incrementalReplies: {
        type: 'number',
        description: 'replied − holdoutInboundRate × sent, rounded to 2 decimals: the replies the campaign caused (may be negative)',
      },
      costPerIncrementalReply: {
        type: 'string',
        pattern: '^\\d+\\.\\d{2,6}$',
        description: 'The cost’s `amount` / incrementalReplies; absent without a cost or when incrementalReplies ≤ 0',
      },
      heldOut: int,
      holdoutInbound: int,
      sent: int,
      replied: int,
      reliable: {
        ...bool,
        description:
          'Both groups hold at least 100 people, replies and holdout inbound together at least 10, and the two rates differ at 95 % confidence (two-proportion z-test); false: too small or too close to trust',
      },
    },
    ['sentReplyRate', 'holdoutInboundRate', 'incrementalReplies', 'heldOut', 'holdoutInbound', 'sent', 'replied', 'reliable'],
  ),
  description: 'Only with a holdout: the campaign’s lift over its held-out group (docs/OUTCOMES.md "Holdout and lift")',
};

export const holdoutSchema: JsonSchema = {
  ...obj({ percent: { type: 'number', exclusiveMinimum: 0, maximum: 50 } }),
  description: 'Only with a holdout: the share of the sendable audience never sent',
};

export const attributionWindowSchema: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: 720,
  description: 'Hours an inbound message without context counts for the campaign (docs/OUTCOMES.md)',
};
