import * as v from 'valibot';
import { writtenPhoneNumber } from '../recipients/phone-rule';
import { businessScopedUserIdSchema } from '../recipients/business-scoped-user-id';
import { sendableText } from '../templates/sendable-text';

/**
 * The earlier send-single and send-bulk bodies. Recipient numbers are judged per recipient by the
 * phone rule (`writtenSplitNumber`, in the use case: earlier-triage.ts): an invalid number is a
 * partial failure (counted, not charged, named in the answer's `failures`), not a rejected request.
 * Here only their length is bounded (`writtenPhoneNumber`).
 */
const requiredText = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(512, 'must be at most 512 characters'), sendableText());
const parameters = v.array(v.pipe(v.string(), v.maxLength(1024, 'values must be at most 1024 characters'), sendableText()));

/**
 * One address: `countryCode` + `toPhoneNumber` (as the contract has them), or `userId` (Meta's
 * business-scoped user id, docs/BROADCAST.md "Recipients by business-scoped user id"), never both.
 * The same three rules for send-single's body and each of send-bulk's `data[i]`.
 */
type Addressed = { countryCode?: string; toPhoneNumber?: string; userId?: string };
/** The field an issue is reported on: a key of `Addressed`, which every `T` below extends (valibot's path type cannot see that through the generic). */
const field = (key: keyof Addressed): never => [key] as never;
const oneAddress = <T extends Addressed>() =>
  [
    v.forward(
      v.check<T, string>((body) => body.userId !== undefined || body.countryCode !== undefined, 'is required (or userId)'),
      field('countryCode'),
    ),
    v.forward(
      v.check<T, string>((body) => body.userId !== undefined || body.toPhoneNumber !== undefined, 'is required (or userId)'),
      field('toPhoneNumber'),
    ),
    v.forward(
      v.check<T, string>(
        (body) => body.userId === undefined || (body.countryCode === undefined && body.toPhoneNumber === undefined),
        'must not be given with countryCode or toPhoneNumber',
      ),
      field('userId'),
    ),
  ] as const;

const addressEntries = {
  countryCode: v.optional(writtenPhoneNumber),
  toPhoneNumber: v.optional(writtenPhoneNumber),
  /** Meta's business-scoped user id instead of the number (docs/BROADCAST.md "Recipients by business-scoped user id"). */
  userId: v.optional(businessScopedUserIdSchema),
};

const earlierRecipientEntries = v.object({ ...addressEntries, templateParams: v.optional(parameters) });
export const earlierRecipientSchema = v.pipe(earlierRecipientEntries, ...oneAddress<v.InferOutput<typeof earlierRecipientEntries>>());

const templateFields = {
  templateName: requiredText,
  templateLanguage: requiredText,
  templateType: requiredText,
  templateId: v.optional(v.pipe(v.string(), sendableText())),
};

const singleEntries = v.object({
  ...templateFields,
  ...addressEntries,
  templateParams: v.optional(parameters),
  broadcastName: v.optional(v.pipe(v.string(), v.maxLength(200, 'must be at most 200 characters'), sendableText())),
});

export const sendSingleSchema = v.pipe(singleEntries, ...oneAddress<v.InferOutput<typeof singleEntries>>());

export const sendBulkSchema = v.object({
  ...templateFields,
  broadcastName: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'), sendableText()),
  data: v.pipe(v.array(earlierRecipientSchema, 'must be an array of recipients'), v.minLength(1, 'must hold at least 1 recipient')),
  globalTemplateParams: v.optional(parameters),
});

export type SendSingleRequest = v.InferOutput<typeof sendSingleSchema>;
export type SendBulkRequest = v.InferOutput<typeof sendBulkSchema>;
