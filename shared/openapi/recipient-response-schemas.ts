/** The recipients list's page and the pricing the job summary counts (docs/DELIVERY-STATUS.md, docs/BROADCAST.md "Status"). */
import { recipientOutcomeProperties } from './outcome-response-schemas';
import { recipientStatusSchema, recipientWaitingProperties } from './send-window-response-schemas';
import { RECIPIENT_STATUSES } from '../delivery/recipient-status';
import { arrayOf, bool, int, nullableString, obj, str, type JsonSchema } from './schema-builders';

export const pricingCounts = {
  ...obj({ billable: int, byCategory: { type: 'object', additionalProperties: int } }),
  description:
    'Meta’s pricing from the status webhooks: billable recipients and recipients per category (`marketing`, `marketing_lite`, `utility`, `authentication`, `authentication_international`, `service`, …), each recipient once under its latest pricing; present once any recipient has pricing (docs/BROADCAST.md "Status")',
};

const messagePricing: JsonSchema = {
  ...obj({ category: str, type: str, billable: bool, pricingModel: str, subtype: str }, ['category', 'type', 'billable', 'pricingModel']),
  description:
    'Meta’s pricing of the message from its status webhooks, the highest stage’s (read > delivered > sent); absent until a webhook carried one. Every value is Meta’s open string (`type`: `regular`, `free_customer_service`, …; `subtype` when Meta sent one, e.g. `paid_exempt`); a free-form message Meta did not price carries the free tier’s verdict (docs/DELIVERY-STATUS.md "Recipients list", "Pricing values and service messages")',
};
const recipientCost: JsonSchema = {
  ...obj({ currency: str, amount: str }),
  description:
    'A billed recipient’s price at the operator’s rate card for its calling code and pricing category; absent without a card, or when Meta did not mark it billable (docs/BROADCAST.md "Cost per campaign")',
};
export const recipientsPage = obj(
  {
    recipients: arrayOf({
      type: 'object',
      additionalProperties: true,
      properties: {
        status: recipientStatusSchema(RECIPIENT_STATUSES),
        messageId: nullableString,
        sentVia: str,
        pricing: messagePricing,
        cost: recipientCost,
        ...recipientOutcomeProperties,
        ...recipientWaitingProperties,
      },
      required: ['status'],
    }),
    nextCursor: nullableString,
  },
  ['recipients'],
);
