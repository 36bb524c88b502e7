/** Success answer of GET /audit-log (docs/PEOPLE.md "Audit log"), in the broadcast envelope. */
import { arrayOf, int, json, nullableString, obj, str, type JsonSchema, type SuccessResponse } from './schema-builders';

const broadcastEnvelope = (data: JsonSchema, statusCode: number): JsonSchema =>
  obj({ status: { const: true }, status_code: { const: statusCode }, message: str, data });

const actor: JsonSchema = {
  description: 'Who acted: a person signed in with their own token, a credential (the organization’s API key, an organization token), or an operator’s command',
  oneOf: [
    obj({ kind: { const: 'person' }, personId: str, email: str, role: str }),
    obj({ kind: { const: 'credential' }, credentialId: str, credentialKind: str }),
    obj({ kind: { const: 'operator' }, name: str }),
  ],
};

const entry = obj(
  {
    entryId: { ...str, description: 'Unique, sortable by time' },
    at: { ...str, description: 'When the call was received (ISO 8601)' },
    actor,
    action: { ...str, description: 'The operation called (`launchCampaign`, `createAudience`, …)' },
    method: str,
    path: { ...str, description: 'The path as called; ids only' },
    target: { type: 'object', additionalProperties: str, description: 'The ids the path names (`{ "campaignId": "cmp_…" }`)' },
    sourceIp: { ...str, description: 'The caller’s address as the gateway saw it; absent for an operator’s command' },
    statusCode: int,
    outcome: { enum: ['succeeded', 'refused', 'failed'], description: '`succeeded` (2xx), `refused` (4xx), `failed` (5xx)' },
    errorCode: { ...str, description: 'The error code of a refusal or failure' },
    requestId: str,
  },
  ['entryId', 'at', 'actor', 'action', 'method', 'path', 'target', 'statusCode', 'outcome', 'requestId'],
);

const example = {
  entryId: 'aud_20261202T093000000Z_4f1c2a9e0b7d6c53',
  at: '2026-12-02T09:30:00.000Z',
  actor: { kind: 'person', personId: 'psn_0123456789abcdef0123', email: 'ada@example.com', role: 'campaign-manager' },
  action: 'cancelCampaign',
  method: 'POST',
  path: '/prod/api/v2/broadcast/public/campaigns/cmp_01JTQ5Z8M3V4W6X7Y8Z9A0B1C2/cancel',
  target: { campaignId: 'cmp_01JTQ5Z8M3V4W6X7Y8Z9A0B1C2' },
  sourceIp: '203.0.113.7',
  statusCode: 200,
  outcome: 'succeeded',
  requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
};

export const auditSuccesses: Readonly<Record<string, SuccessResponse[]>> = {
  'broadcast:listAuditLog': [
    {
      status: '200',
      description:
        'The organization’s audit log, newest first: one entry per state-changing call (any POST, PATCH or DELETE of the broadcast and organization APIs with a caller), refusals included; kept 400 days. `actorId` filters by a person’s `personId` or a credential’s `credentialId`, `action` by operation. A page may hold fewer than `limit` entries when filters match rarely: follow `nextCursor` until it is null. People with the `admin` role and the organization’s own API keys (not keys bound to a sender) may read it.',
      content: json(broadcastEnvelope(obj({ entries: arrayOf(entry), nextCursor: nullableString }), 200), {
        status: true,
        status_code: 200,
        message: '1 audit entries',
        data: { entries: [example], nextCursor: null },
      }),
    },
  ],
};
