/** The send-window fields of the answers (docs/CAMPAIGNS.md "Send windows"): each optional, present only when there is something to say. */
import { arrayOf, int, obj, str, type JsonSchema } from './schema-builders';

const count = (description: string): JsonSchema => ({ ...int, description });
const time = (description: string): JsonSchema => ({ ...str, description: `${description} (ISO 8601 time)` });

/** The job status summary's and the campaign totals' waiting counts. */
export const waitingSummaryProperties: Record<string, JsonSchema> = {
  waitingForWindow: count(
    'Of `pending` (a campaign: of `queued`), recipients waiting for their send window in their own time (docs/CAMPAIGNS.md "Send windows"); present while any is',
  ),
  nextWindowAt: time('The earliest opening among the recipients waiting for their window; with `waitingForWindow`'),
  deferredByCap: count(
    'Of `pending` (a campaign: of `queued`), recipients deferred by the organization\u2019s frequency cap (`deferCapped`, docs/CAMPAIGNS.md "Frequency caps"); present while any is',
  ),
  nextCapAt: time('The earliest time the frequency cap lets one of them go; with `deferredByCap`'),
};

/** A recipients-list row's waiting time. */
export const recipientWaitingProperties: Record<string, JsonSchema> = {
  waitingUntil: time('Only on a WAITING recipient (not sent yet: outside their send window, or deferred by the frequency cap): when they may go'),
};

/** The recipients list's statuses (shared/delivery/recipient-status.ts RECIPIENT_STATUSES). */
export const recipientStatusSchema = (statuses: readonly string[]): JsonSchema => ({
  type: 'string',
  enum: [...statuses],
  description: 'docs/DELIVERY-STATUS.md "Recipients list"; WAITING: held for the recipient\u2019s send window or the frequency cap (`waitingUntil`)',
});

/** A dry run's `sendWindow`. */
export const sendWindowPlanSchema: JsonSchema = {
  ...obj({ now: count('Inside their send window at the send time: sent at once'), later: arrayOf(obj({ at: time('When their windows open'), count: int })) }),
  description: 'Only with a `sendWindow`: how many recipients go at the send time and when the rest go, earliest first (docs/CAMPAIGNS.md "Send windows")',
};
