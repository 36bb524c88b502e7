import * as v from 'valibot';
import { writtenPhoneNumber } from '../recipients/phone-rule';
import { businessScopedUserIdSchema } from '../recipients/business-scoped-user-id';
import { sendableText } from '../templates/sendable-text';

/**
 * The earlier send-single and send-bulk bodies. Recipient numbers are judged per recipient by the
 * phone rule (`isSplitNumber`, in the use case): an invalid number is a partial failure (counted,
 * not charged), not a rejected request. Here only their length is bounded (`writtenPhoneNumber`).
 */
const requiredText = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(512, 'must be at most 512 characters'), sendableText());
const parameters = v.array(v.pipe(v.string(), v.maxLength(1024, 'values must be at most 1024 characters'), sendableText()));

export const earlierRecipientSchema = v.object({
  countryCode: writtenPhoneNumber,
  toPhoneNumber: writtenPhoneNumber,
  templateParams: v.optional(parameters),
});

const templateFields = {
  templateName: requiredText,
  templateLanguage: requiredText,
  templateType: requiredText,
  templateId: v.optional(v.pipe(v.string(), sendableText())),
};

const singleEntries = v.object({
  ...templateFields,
  countryCode: v.optional(writtenPhoneNumber),
  toPhoneNumber: v.optional(writtenPhoneNumber),
  /** Meta's business-scoped user id instead of the number (docs/BROADCAST.md "Recipients by business-scoped user id"). */
  userId: v.optional(businessScopedUserIdSchema),
  templateParams: v.optional(parameters),
  broadcastName: v.optional(v.pipe(v.string(), v.maxLength(200, 'must be at most 200 characters'), sendableText())),
});
type Single = v.InferOutput<typeof singleEntries>;

/** One recipient: `countryCode` + `toPhoneNumber` (as the contract has them), or `userId`, never both. */
export const sendSingleSchema = v.pipe(
  singleEntries,
  v.forward(v.check<Single, string>((body) => body.userId !== undefined || body.countryCode !== undefined, 'is required (or userId)'), ['countryCode']),
  v.forward(v.check<Single, string>((body) => body.userId !== undefined || body.toPhoneNumber !== undefined, 'is required (or userId)'), ['toPhoneNumber']),
  v.forward(v.check<Single, string>((body) => body.userId === undefined || (body.countryCode === undefined && body.toPhoneNumber === undefined), 'must not be given with countryCode or toPhoneNumber'), ['userId']),
);

export const sendBulkSchema = v.object({
  ...templateFields,
  broadcastName: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'), sendableText()),
  data: v.pipe(v.array(earlierRecipientSchema, 'must be an array of recipients'), v.minLength(1, 'must hold at least 1 recipient')),
  globalTemplateParams: v.optional(parameters),
});

export type SendSingleRequest = v.InferOutput<typeof sendSingleSchema>;
export type SendBulkRequest = v.InferOutput<typeof sendBulkSchema>;
