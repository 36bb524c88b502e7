import * as v from 'valibot';
import { broadcastSendRulesEntries } from '../send-rules/send-rules.schema';
import { ASK_VALIBOT, objectFastPath, type FastEntryChecks } from '../http/object-fast-path';
import { parseRequest } from '../http/validation';
import { hasDigitsWithin, phoneDigitBounds } from '../recipients/phone-number';
import { phoneDigits, splitPhoneNumberEntries } from '../recipients/phone-rule';
import { fastButtons } from '../templates/content-fast-checks';
import { businessScopedUserIdSchema, isBusinessScopedUserId } from '../recipients/business-scoped-user-id';
import { isSendableText, sendableText } from '../templates/sendable-text';
import { MAX_PARAMETER_LENGTH, PARAMETER_NAME, templateContentEntries, templateParametersSchema } from '../templates/template-content.schema';

import { ATTRIBUTION_WINDOW_BOUNDS } from '../outcomes/outcome-facts';

export const MAX_RECIPIENTS = 10_000;

const requiredText = (maxLength: number) =>
  v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(maxLength, `must be at most ${maxLength} characters`), sendableText());

export const templateCategorySchema = v.picklist(['MARKETING', 'UTILITY'], 'must be MARKETING or UTILITY');

/** How far ahead a broadcast may be scheduled (the issue: 35 days). */
export const MAX_SCHEDULE_AHEAD_DAYS = 35;
/** ISO 8601 date and time with seconds optional, fractions up to nanoseconds, and a UTC offset or Z (never a local time). */
const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;
const ISO_RULE = 'must be an ISO 8601 date and time with a UTC offset or Z (e.g. 2026-03-01T09:00:00Z or 2026-03-01T10:00:00+01:00)';

/** A real calendar day: the engine's Date.parse would roll 2026-02-30 over to March. */
function isIsoWithOffset(text: string): boolean {
  const parts = ISO_WITH_OFFSET.exec(text);
  if (!parts) return false;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  return month >= 1 && month <= 12 && day >= 1 && new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day && !Number.isNaN(Date.parse(text));
}

export const scheduledAtSchema = v.pipe(v.string(), v.check(isIsoWithOffset, ISO_RULE));

/** A send's content as stored with a job and queued with its chunks (the request's own rules). */
export const templateContentSchema = v.object(templateContentEntries(scheduledAtSchema));
/** A named template's header and URL variable names (template-components.ts VariableNames). */
export const variableNamesSchema = v.object({ header: v.optional(v.string()), buttons: v.optional(v.record(v.string(), v.string())) });

/**
 * One recipient's fields: its number (`countryCode` + `toPhoneNumber`) or its business-scoped user
 * id (`userId`), its body values, and its own header, buttons, carousel or offer (each wins over the
 * broadcast's). Which address it gives is `recipientAddressRule`'s: `addressedRecipientSchema`.
 */
export const recipientSchema = v.object({
  countryCode: v.optional(splitPhoneNumberEntries.countryCode),
  toPhoneNumber: v.optional(splitPhoneNumberEntries.toPhoneNumber),
  /** Meta's business-scoped user id (or parent BSUID) instead of the number: docs/BROADCAST.md "Recipients by business-scoped user id". */
  userId: v.optional(businessScopedUserIdSchema),
  templateParams: v.optional(templateParametersSchema),
  ...templateContentEntries(scheduledAtSchema),
});

export const RECIPIENT_ADDRESS_RULE = 'must give either countryCode and toPhoneNumber, or userId (not both)';

/**
 * Exactly one address: a whole number (both its parts) and no userId, or a userId and no part of a number.
 *
 * @example
 * hasOneAddress({ userId: 'US.1' }); // true
 * hasOneAddress({ countryCode: '44', userId: 'US.1' }); // false
 */
export function hasOneAddress(recipient: { countryCode?: string; toPhoneNumber?: string; userId?: string }): boolean {
  return recipient.userId === undefined
    ? recipient.countryCode !== undefined && recipient.toPhoneNumber !== undefined
    : recipient.countryCode === undefined && recipient.toPhoneNumber === undefined;
}

/** A recipient with its one address: what a request's `data` holds (a 400 names `data[i]` otherwise). */
export const addressedRecipientSchema = v.pipe(recipientSchema, v.check<v.InferOutput<typeof recipientSchema>, string>(hasOneAddress, RECIPIENT_ADDRESS_RULE));

const describeSeconds = (seconds: number): string =>
  seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} second${seconds === 1 ? '' : 's'}`;

/**
 * The time window of `scheduledAt`, relative to the moment of acceptance (checked inside the
 * idempotent work, so a replay with the same Idempotency-Key still gets the first answer). The
 * minimum lead is a deployment setting (BROADCAST_SCHEDULE_MIN_LEAD_SECONDS, default 300).
 */
export const scheduleWindowSchema = (now: Date, minLeadSeconds: number) =>
  v.pipe(
    scheduledAtSchema,
    v.check((text) => Date.parse(text) >= now.getTime() + minLeadSeconds * 1000, `must be at least ${describeSeconds(minLeadSeconds)} in the future`),
    v.check(
      (text) => Date.parse(text) <= now.getTime() + MAX_SCHEDULE_AHEAD_DAYS * 86_400_000,
      `must be at most ${MAX_SCHEDULE_AHEAD_DAYS} days in the future`,
    ),
  );

const { min: MIN_WINDOW, max: MAX_WINDOW } = ATTRIBUTION_WINDOW_BOUNDS;
/** `attributionWindowHours` of a broadcast, a follow-up or a campaign: whole hours, 1 to 720 (30 days). */
export const attributionWindowHoursSchema = v.pipe(
  v.number('must be a whole number of hours'),
  v.integer('must be a whole number of hours'),
  v.minValue(MIN_WINDOW, `must be at least ${MIN_WINDOW}`),
  v.maxValue(MAX_WINDOW, `must be at most ${MAX_WINDOW}`),
);

export const templateBroadcastSchema = v.object({
  broadcastName: requiredText(200),
  fromPhoneNumber: phoneDigits(phoneDigitBounds.sender),
  templateName: requiredText(512),
  templateLanguage: requiredText(20),
  templateType: templateCategorySchema,
  templateId: v.optional(v.pipe(v.string(), sendableText())),
  globalTemplateParams: v.optional(templateParametersSchema),
  /** Header, buttons, carousel and offer every recipient gets unless it gives its own (docs/BROADCAST.md "Rich templates"). */
  ...templateContentEntries(scheduledAtSchema),
  data: v.pipe(
    v.array(addressedRecipientSchema, 'must be an array of recipients'),
    v.minLength(1, 'must hold at least 1 recipient'),
    v.maxLength(MAX_RECIPIENTS, `must hold at most ${MAX_RECIPIENTS} recipients`),
  ),
  /** Send later: the job is accepted now (every rule checked) and fans out at this time. */
  scheduledAt: v.optional(scheduledAtSchema),
  /** Hours after delivery a recipient's message without context still counts as a reply to this job (docs/OUTCOMES.md "Attribution"). */
  attributionWindowHours: v.optional(attributionWindowHoursSchema),
  /** Send windows in each recipient's time and deferral over the frequency cap (docs/CAMPAIGNS.md). */
  ...broadcastSendRulesEntries,
});

export type TemplateBroadcastRequest = v.InferOutput<typeof templateBroadcastSchema>;
export type RecipientInput = v.InferOutput<typeof addressedRecipientSchema>;

/* ------------------------------------------------------------ one pass over the recipients */

/**
 * Plain-code checks of the recipient's entries, each answering exactly as the entry's schema does
 * (test/unit/broadcast/template-broadcast-parse.test.ts holds them to it with generated values).
 * An entry without one is checked by its own schema: a field added to recipientSchema is kept.
 */
export const recipientFastChecks: FastEntryChecks<typeof recipientSchema.entries> = {
  countryCode: (value) => (hasDigitsWithin(value, phoneDigitBounds.countryCode) ? value : ASK_VALIBOT),
  toPhoneNumber: (value) => (hasDigitsWithin(value, phoneDigitBounds.nationalNumber) ? value : ASK_VALIBOT),
  userId: (value) => (typeof value === 'string' && isBusinessScopedUserId(value) ? value : ASK_VALIBOT),
  templateParams: (value) => {
    if (!Array.isArray(value)) return namedParametersFast(value);
    for (const parameter of value) {
      if (!isParameterValue(parameter)) return ASK_VALIBOT;
    }
    return [...(value as string[])];
  },
  // A URL suffix or coupon of its own per recipient is the common rich broadcast (docs/PERFORMANCE.md 3c).
  buttons: (value) => fastButtons(value) ?? ASK_VALIBOT,
};

const isParameterValue = (value: unknown): value is string => typeof value === 'string' && value.length <= MAX_PARAMETER_LENGTH && isSendableText(value);

/** A named template's values by name, as templateParametersSchema's record answers them (a fresh object, same key order). */
function namedParametersFast(value: unknown): Record<string, string> | typeof ASK_VALIBOT {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return ASK_VALIBOT;
  const output: Record<string, string> = {};
  let names = 0;
  for (const [name, parameter] of Object.entries(value)) {
    if (!PARAMETER_NAME.test(name) || !isParameterValue(parameter)) return ASK_VALIBOT;
    output[name] = parameter;
    names += 1;
  }
  return names > 0 ? output : ASK_VALIBOT;
}

export const recipientPassingEveryRule = objectFastPath(recipientSchema, recipientFastChecks);

/** The request without the per-recipient rules (the list's own rules stay): for a list already checked. */
export const envelopeSchema = v.object({
  ...templateBroadcastSchema.entries,
  data: v.pipe(v.array(v.unknown()), v.minLength(1), v.maxLength(MAX_RECIPIENTS)),
});

/**
 * `parseRequest(templateBroadcastSchema, input)`, in one pass over the recipients: a list of up to
 * 10,000 is checked by the recipient schema's fast path (object-fast-path.ts), and valibot checks
 * the rest of the request. Whenever anything fails, the whole request goes through
 * `templateBroadcastSchema`, so every 400 is worded exactly as valibot words it; an accepted
 * request has exactly valibot's output.
 */
export function parseTemplateBroadcastRequest(input: unknown): TemplateBroadcastRequest {
  const data = typeof input === 'object' && input !== null ? (input as { data?: unknown }).data : undefined;
  if (Array.isArray(data) && data.length <= MAX_RECIPIENTS) {
    const recipients: RecipientInput[] = [];
    for (const item of data) {
      const recipient = recipientPassingEveryRule(item);
      if (!recipient || !hasOneAddress(recipient)) break;
      recipients.push(recipient);
    }
    if (recipients.length === data.length) {
      const envelope = v.safeParse(envelopeSchema, input, { abortPipeEarly: true });
      // `data` keeps its place among the keys: the Idempotency-Key's payload hash serialises the request.
      if (envelope.success) return { ...envelope.output, data: recipients };
    }
  }
  return parseRequest(templateBroadcastSchema, input);
}
