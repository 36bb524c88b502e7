/**
 * Request shapes of the generic v1 API. Messages state the rule; shared/http/validation.ts prefixes
 * the field (`body.phoneNumber must be 8 to 15 digits, …`). Bodies are strict: an unknown field is
 * a 400, so a misspelt `tag` for `tags` does not silently create a contact without tags.
 */
import * as v from 'valibot';
import { phoneDigitBounds } from '../recipients/phone-number';
import { phoneDigitsSentence } from '../recipients/phone-rule';
import { conversationStatuses, defaultPageSize, maxPageSize } from './inbox-entities';

export const maxNameLength = 200;
export const maxTags = 20;
export const maxTagLength = 50;
export const maxAttributes = 50;
export const maxAttributeValueLength = 500;
export const maxSearchLength = 100;

/** Any field beyond the declared ones. */
const noOtherField = v.never('is not a known field');

const phoneDigits = phoneDigitsSentence(phoneDigitBounds.international, ', country code included (no +, spaces or punctuation)');

const text = (maxLength: number) =>
  v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(maxLength, `must be at most ${maxLength} characters`));

const email = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(254, 'must be at most 254 characters'),
  v.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address'),
);

const tag = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(maxTagLength, `must be at most ${maxTagLength} characters`),
  v.regex(/^[\p{L}\p{N}][\p{L}\p{N} _.:-]*$/u, 'must be letters, digits, spaces, _ . : or -, starting with a letter or digit'),
);

const attributeValue = v.union(
  [
    v.pipe(v.string(), v.maxLength(maxAttributeValueLength, `must be at most ${maxAttributeValueLength} characters`)),
    // DynamoDB stores numbers of magnitude 1e-130 to just under 1e126 (and 0); anything else would be refused by the table (a 500).
    v.pipe(
      v.number(),
      v.finite(),
      v.check((value) => value === 0 || (Math.abs(value) >= 1e-130 && Math.abs(value) < 1e126), 'must be 0 or of magnitude 1e-130 to 1e126'),
    ),
    v.boolean(),
  ],
  'must be a string, a number or a boolean',
);

const attributes = v.pipe(
  v.record(v.pipe(v.string(), v.regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'names must be 1 to 64 letters, digits or _, starting with a letter')), attributeValue),
  v.check((value) => Object.keys(value).length <= maxAttributes, `must hold at most ${maxAttributes} attributes`),
);

export const contactIdSchema = v.pipe(v.string(), v.regex(/^ct_[A-Za-z0-9]{1,64}$/, 'must be a contact id (ct_…)'));
export const conversationIdPattern = /^cv_[A-Za-z0-9]{1,64}$/;
export const contactIdPattern = /^ct_[A-Za-z0-9]{1,64}$/;

export const createContactSchema = v.objectWithRest(
  {
    phoneNumber: phoneDigits,
    name: text(maxNameLength),
    email: v.optional(email),
    tags: v.optional(v.pipe(v.array(tag), v.maxLength(maxTags, `must hold at most ${maxTags} tags`))),
    attributes: v.optional(attributes),
  },
  noOtherField,
);

const page = v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,5}$/, 'must be a whole number from 1 to 999999'), v.transform(Number)), '1');
const pageSize = v.optional(
  v.pipe(
    v.string(),
    v.regex(/^\d{1,6}$/, `must be a whole number from 1 to ${maxPageSize}`),
    v.transform(Number),
    v.minValue(1, `must be a whole number from 1 to ${maxPageSize}`),
    v.maxValue(maxPageSize, `must be at most ${maxPageSize}`),
  ),
  String(defaultPageSize),
);

/** Query strings: unknown parameters are ignored (cache busters, tracking parameters). */
export const listContactsQuerySchema = v.object({
  page,
  pageSize,
  tag: v.optional(tag),
  search: v.optional(text(maxSearchLength)),
});

export const createConversationSchema = v.objectWithRest(
  {
    contactId: contactIdSchema,
    senderPhoneNumber: phoneDigits,
  },
  noOtherField,
);

const status = v.picklist(conversationStatuses, 'must be open or closed');

export const listConversationsQuerySchema = v.object({
  page,
  pageSize,
  status: v.optional(status),
  contactId: v.optional(contactIdSchema),
});

export const updateConversationSchema = v.objectWithRest({ status }, noOtherField);

/** Opt-outs: one number, digits like a contact's. */
export const createOptOutSchema = v.objectWithRest({ phoneNumber: phoneDigits }, noOtherField);
export const optOutPathSchema = v.object({ phoneNumber: phoneDigits });
export const listOptOutsQuerySchema = v.object({ page, pageSize });
