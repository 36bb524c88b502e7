import * as v from 'valibot';
import { sendableText } from './sendable-text';

export const MAX_RECIPIENTS = 10_000;
/** Meta's limit on one template parameter value. */
const MAX_PARAMETER_LENGTH = 1024;

export const digitsOnly = (minLength: number, maxLength: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, 'must contain digits only (no +, spaces or punctuation)'),
    v.minLength(minLength, `must have at least ${minLength} digits`),
    v.maxLength(maxLength, `must have at most ${maxLength} digits`),
  );

const parameterList = v.array(
  v.pipe(v.string(), v.maxLength(MAX_PARAMETER_LENGTH, `values must be at most ${MAX_PARAMETER_LENGTH} characters`), sendableText()),
);

const requiredText = (maxLength: number) =>
  v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(maxLength, `must be at most ${maxLength} characters`), sendableText());

export const templateCategorySchema = v.picklist(['MARKETING', 'UTILITY'], 'must be MARKETING or UTILITY');

export const recipientSchema = v.object({
  countryCode: digitsOnly(1, 3),
  toPhoneNumber: digitsOnly(4, 14),
  templateParams: v.optional(parameterList),
});

export const templateBroadcastSchema = v.object({
  broadcastName: requiredText(200),
  fromPhoneNumber: digitsOnly(6, 15),
  templateName: requiredText(512),
  templateLanguage: requiredText(20),
  templateType: templateCategorySchema,
  templateId: v.optional(v.pipe(v.string(), sendableText())),
  globalTemplateParams: v.optional(parameterList),
  data: v.pipe(
    v.array(recipientSchema, 'must be an array of recipients'),
    v.minLength(1, 'must hold at least 1 recipient'),
    v.maxLength(MAX_RECIPIENTS, `must hold at most ${MAX_RECIPIENTS} recipients`),
  ),
});

export type TemplateBroadcastRequest = v.InferOutput<typeof templateBroadcastSchema>;
export type RecipientInput = v.InferOutput<typeof recipientSchema>;
