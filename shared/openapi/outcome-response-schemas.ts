/** The outcome fields of the status summary, the campaign totals and the recipients list (docs/OUTCOMES.md "Where it shows"). */
import { arrayOf, int, obj, str, type JsonSchema } from './schema-builders';

const count = (description: string): JsonSchema => ({ ...int, description });

/** The summary's (and the campaign totals') outcome counts: `replied`, `clicked`, `buttons` together once the job has any outcome; the others only above 0. */
export const outcomeSummaryProperties: Record<string, JsonSchema> = {
  replied: count(
    'Recipients with a reply attributed to the job (by the reply’s context, or last touch within the attribution window); present once the job has any outcome (docs/OUTCOMES.md "Where it shows")',
  ),
  clicked: count('Recipients with at least one counted click on their tracked link (unique people); present with `replied`'),
  buttons: {
    ...arrayOf(obj({ index: int, payload: str, taps: int })),
    description: 'Taps per quick-reply button, each person once per button (`index` -1: no button of the template matched the tap); present with `replied`',
  },
  repliedByStop: count('Recipients whose STOP reply was attributed to the job; present when above 0'),
  heldOut: count('Held out of the campaign (never sent, status HELD_OUT); present when above 0'),
};

/** A recipients-list row's outcome fields, each only when the recipient has it. */
export const recipientOutcomeProperties: Record<string, JsonSchema> = {
  repliedAt: { ...str, description: 'The first reply attributed to the message (ISO time)' },
  buttonPayload: { ...str, description: 'The payload of the first quick-reply button the recipient tapped' },
  firstClickAt: { ...str, description: 'The first counted click on the recipient’s tracked link (ISO time)' },
  clicks: count('Counted clicks on the tracked link (link previews and HEAD requests never count)'),
};

/** The cost per outcome fields of `cost` (the amount divided by the count, to the micro-unit; absent while the count is 0). */
export const costPerOutcomeProperties = (decimal: JsonSchema): Record<string, JsonSchema> => ({
  perReply: { ...decimal, description: '`amount` per recipient who replied; absent while nobody replied (docs/OUTCOMES.md "Where it shows")' },
  perClick: { ...decimal, description: '`amount` per recipient who clicked a tracked link; absent while nobody clicked' },
});
