/** Success answers of the /audiences routes (docs/CAMPAIGNS.md "Audiences"), in the broadcast envelope. */
import { arrayOf, int, json, nullableString, obj, str, type JsonSchema, type SuccessResponse } from './schema-builders';

const broadcastEnvelope = (data: JsonSchema, statusCode: number): JsonSchema =>
  obj({ status: { const: true }, status_code: { const: statusCode }, message: str, data });
const envelopeExample = (statusCode: number, message: string, data: unknown) => ({ status: true, status_code: statusCode, message, data });

const countsByCode: JsonSchema = {
  type: 'object',
  additionalProperties: int,
  description: 'Members by calling code of their number (a BSUID’s by its country; `unknown` when none is known)',
};
const attributeValue: JsonSchema = { type: ['string', 'number', 'boolean'] };

const audienceSummary = obj({ audienceId: str, name: str, memberCount: int, createdAt: str, updatedAt: str });
const audienceView = obj({ audienceId: str, name: str, memberCount: int, optedOutCount: int, byCountry: countsByCode, createdAt: str, updatedAt: str });
const invalidRows: JsonSchema = {
  ...arrayOf(obj({ index: int, field: str, rule: str })),
  description: 'Rows refused, by index in `members`, with the field and the rule broken: nothing was stored for them',
};
const memberRow = obj(
  {
    countryCode: str,
    toPhoneNumber: str,
    userId: str,
    attributes: { type: 'object', additionalProperties: attributeValue },
    tags: arrayOf(str),
    updatedAt: str,
  },
  ['countryCode', 'toPhoneNumber', 'attributes', 'tags', 'updatedAt'],
);

const at = '2026-05-04T08:00:00.000Z';
const vipExample = { audienceId: 'aud_01JTQ5Z8M3V4W6X7Y8Z9A0B1C2', name: 'VIP customers', memberCount: 2, createdAt: at, updatedAt: at };

export const audienceSuccesses: Readonly<Record<string, SuccessResponse[]>> = {
  'broadcast:createAudience': [
    {
      status: '201',
      description: 'The new, empty audience',
      content: json(
        broadcastEnvelope(obj({ audienceId: str, name: str, memberCount: { const: 0 }, createdAt: str }), 201),
        envelopeExample(201, 'Audience created', { audienceId: vipExample.audienceId, name: vipExample.name, memberCount: 0, createdAt: at }),
      ),
    },
  ],
  'broadcast:listAudiences': [
    {
      status: '200',
      description: 'The organization’s audiences: `contacts` (its v1 contacts) first, then the saved ones newest first',
      content: json(
        broadcastEnvelope(obj({ audiences: arrayOf(audienceSummary), nextCursor: nullableString }), 200),
        envelopeExample(200, '2 audience(s)', {
          audiences: [{ audienceId: 'contacts', name: 'contacts', memberCount: 120, createdAt: at, updatedAt: at }, vipExample],
          nextCursor: null,
        }),
      ),
    },
  ],
  'broadcast:getAudience': [
    {
      status: '200',
      description: 'The audience with its counts',
      content: json(
        broadcastEnvelope(audienceView, 200),
        envelopeExample(200, 'Audience VIP customers', { ...vipExample, optedOutCount: 0, byCountry: { '91': 1, '44': 1 } }),
      ),
    },
  ],
  'broadcast:deleteAudience': [
    {
      status: '200',
      description: 'Deleted at once (no longer listed, read or usable by a campaign); its members are removed',
      content: json(
        broadcastEnvelope(obj({ audienceId: str, deleted: { const: true } }), 200),
        envelopeExample(200, 'Audience deleted', { audienceId: vipExample.audienceId, deleted: true }),
      ),
    },
  ],
  'broadcast:upsertMembers': [
    {
      status: '200',
      description: 'Members added or updated by person; invalid rows listed and not stored',
      headers: {
        'Idempotent-Replayed': {
          description: '`true` when the answer is the Idempotency-Key’s first answer, replayed: nothing was written now',
          schema: { const: 'true' },
        },
      },
      content: json(
        broadcastEnvelope(obj({ added: int, updated: int, invalid: invalidRows }), 200),
        envelopeExample(200, '1 added, 0 updated, 1 invalid', {
          added: 1,
          updated: 0,
          invalid: [{ index: 1, field: 'toPhoneNumber', rule: 'must have at least 4 digits' }],
        }),
      ),
    },
  ],
  'broadcast:removeMembers': [
    {
      status: '200',
      description: 'Members removed by person; invalid rows listed',
      content: json(
        broadcastEnvelope(obj({ removed: int, invalid: invalidRows }), 200),
        envelopeExample(200, '1 removed, 0 invalid', { removed: 1, invalid: [] }),
      ),
    },
  ],
  'broadcast:listMembers': [
    {
      status: '200',
      description: 'A page of members (JSON), or the same page as CSV (`format=csv`, the next page’s cursor in `X-Next-Cursor`)',
      headers: { 'X-Next-Cursor': { description: 'With `format=csv`: the cursor of the next page; absent on the last page', schema: str } },
      content: {
        ...json(
          broadcastEnvelope(obj({ members: arrayOf(memberRow), nextCursor: nullableString }), 200),
          envelopeExample(200, '1 member(s)', {
            members: [{ countryCode: '91', toPhoneNumber: '9876543210', attributes: { first_name: 'Ravi', city: 'Pune' }, tags: ['vip'], updatedAt: at }],
            nextCursor: null,
          }),
        ),
        'text/csv': { schema: str },
      },
    },
  ],
};
