/** The v1 API's success answers (contacts, conversations, opt-outs): its envelope and entities (docs/ORGANIZATIONS-AND-V1.md). */
import { anyObject, arrayOf, int, json, nullableString, obj, str, type JsonSchema, type SuccessResponse } from './schema-builders';

const v1Envelope = (data: JsonSchema, list = false): JsonSchema =>
  obj({
    success: { const: true },
    data: list ? arrayOf(data) : data,
    meta: obj(list ? { page: int, pageSize: int, total: int } : { page: int, total: int }),
  });
// phoneNumber is null for a user Meta knows only by BSUID; userId and username appear only when known.
const contactFields = {
  id: { type: 'string', pattern: '^ct_' },
  phoneNumber: nullableString,
  userId: str,
  username: str,
  name: nullableString,
  email: nullableString,
  tags: arrayOf(str),
  attributes: anyObject,
  createdAt: str,
  updatedAt: str,
};
const contact = obj(
  contactFields,
  Object.keys(contactFields).filter((name) => name !== 'userId' && name !== 'username'),
);
const conversation = obj({
  id: { type: 'string', pattern: '^cv_' },
  contactId: str,
  senderPhoneNumber: str,
  status: str,
  createdAt: str,
  updatedAt: str,
  closedAt: nullableString,
  lastMessageAt: nullableString,
  lastInboundAt: nullableString,
});
// A BSUID's entry: phoneNumber null and userId.
const optOut = obj({ phoneNumber: nullableString, userId: str, source: str, createdAt: str }, ['phoneNumber', 'source', 'createdAt']);
const contactExample = {
  id: 'ct_8f2k1',
  phoneNumber: '491701234567',
  name: 'Ada',
  email: null,
  tags: ['vip'],
  attributes: {},
  createdAt: '2026-03-01T09:00:00.000Z',
  updatedAt: '2026-03-01T09:00:00.000Z',
};

const created = (status: '200' | '201', description: string, data: JsonSchema, example: unknown): SuccessResponse => ({
  status,
  description,
  content: json(v1Envelope(data), { success: true, data: example, meta: { page: 1, total: 1 } }),
});

/** Success answers of the v1 surface, by `v1:operation`. */
export const v1Successes: Readonly<Record<string, SuccessResponse[]>> = {
  'v1:listContacts': [
    {
      status: '200',
      description: 'A page of contacts',
      content: json(v1Envelope(contact, true), { success: true, data: [contactExample], meta: { page: 1, pageSize: 20, total: 1 } }),
    },
  ],
  'v1:createContact': [created('201', 'Created', contact, contactExample)],
  'v1:getContact': [created('200', 'The contact', contact, contactExample)],
  'v1:listConversations': [{ status: '200', description: 'A page of conversations', content: json(v1Envelope(conversation, true)) }],
  'v1:createConversation': [
    { status: '201', description: 'Opened', content: json(v1Envelope(conversation)) },
    { status: '200', description: 'The open conversation of this contact and sender already existed', content: json(v1Envelope(conversation)) },
  ],
  'v1:getConversation': [{ status: '200', description: 'The conversation', content: json(v1Envelope(conversation)) }],
  'v1:updateConversation': [{ status: '200', description: 'Updated', content: json(v1Envelope(conversation)) }],
  'v1:listOptOuts': [{ status: '200', description: 'A page of the suppression list', content: json(v1Envelope(optOut, true)) }],
  'v1:createOptOut': [
    created('201', 'Added to the suppression list', optOut, { phoneNumber: '491701234567', source: 'api', createdAt: '2026-03-01T09:00:00.000Z' }),
    { status: '200', description: 'Already on the list', content: json(v1Envelope(optOut)) },
  ],
  'v1:deleteOptOut': [{ status: '204', description: 'Removed from the suppression list' }],
};
