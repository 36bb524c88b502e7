/** Success answers of the `/contact-policy` routes (docs/CAMPAIGNS.md "Frequency caps"), in the broadcast envelope. */
import { json, obj, str, type JsonSchema, type SuccessResponse } from './schema-builders';

const broadcastEnvelope = (data: JsonSchema, statusCode: number): JsonSchema =>
  obj({ status: { const: true }, status_code: { const: statusCode }, message: str, data });
const envelopeExample = (statusCode: number, message: string, data: unknown) => ({ status: true, status_code: statusCode, message, data });

const policy: JsonSchema = {
  ...obj(
    {
      marketingPerPerson: {
        type: 'integer',
        minimum: 1,
        maximum: 1000,
        description: 'Messages of the counted categories one person may receive in any `perDays` days',
      },
      perDays: { type: 'integer', minimum: 1, maximum: 365 },
      categories: {
        type: 'array',
        items: { type: 'string', enum: ['MARKETING', 'UTILITY', 'AUTHENTICATION'] },
        description: 'The template categories counted (MARKETING unless set)',
      },
      updatedAt: str,
      updatedBy: { ...str, description: 'Who set it: `admin` (an operator), `person:<id>` or a key’s credential id' },
    },
    ['marketingPerPerson', 'perDays', 'categories', 'updatedAt'],
  ),
  type: ['object', 'null'],
  description: 'The policy in force; null: none, messages are not capped',
};
const view = obj({ policy }, ['policy']);
const example = {
  policy: { marketingPerPerson: 2, perDays: 7, categories: ['MARKETING'], updatedAt: '2026-12-02T09:30:00.000Z', updatedBy: 'person:ppl_01JD3Q4ZK8' },
};

export const contactPolicySuccesses: Readonly<Record<string, SuccessResponse[]>> = {
  'broadcast:getContactPolicy': [
    {
      status: '200',
      description: 'The organization’s contact policy, or `policy: null`',
      content: json(broadcastEnvelope(view, 200), envelopeExample(200, 'Contact policy', example)),
    },
  ],
  'broadcast:setContactPolicy': [
    {
      status: '200',
      description: 'The policy set (it applies to sends within a minute)',
      content: json(broadcastEnvelope(view, 200), envelopeExample(200, 'Contact policy set', example)),
    },
  ],
  'broadcast:removeContactPolicy': [
    {
      status: '200',
      description: 'The policy removed: messages are not capped',
      content: json(broadcastEnvelope(view, 200), envelopeExample(200, 'Contact policy removed: messages are not capped', { policy: null })),
    },
  ],
};
