/** Success answers of `/me` and the `/people` routes (docs/PEOPLE.md "People"), in the broadcast envelope. */
import { arrayOf, json, obj, str, type JsonSchema, type SuccessResponse } from './schema-builders';

const broadcastEnvelope = (data: JsonSchema, statusCode: number): JsonSchema =>
  obj({ status: { const: true }, status_code: { const: statusCode }, message: str, data });
const envelopeExample = (statusCode: number, message: string, data: unknown) => ({ status: true, status_code: statusCode, message, data });

const role: JsonSchema = { type: 'string', enum: ['viewer', 'campaign-manager', 'admin'] };
const person = obj({ personId: str, email: str, role, joinedAt: str });
const invitation = obj(
  {
    delivery: { type: 'string', enum: ['email-sent-by-identity-provider', 'shown-once', 'managed-by-identity-provider'] },
    temporaryPassword: { ...str, description: 'Only from the local identity provider, which sends no mail: shown this once' },
  },
  ['delivery'],
);
const me = obj(
  {
    organizationId: str,
    actor: { type: 'string', enum: ['person', 'api-key'] },
    role: { ...role, description: 'A person’s role; an organization key acts as `admin`, a key bound to a sender as `campaign-manager`' },
    personId: str,
    email: str,
    credentialId: str,
  },
  ['organizationId', 'actor', 'role'],
);

const ana = { personId: 'psn_3f2a9c0d41b7e8a6c5d2', email: 'ana@example.com', role: 'campaign-manager', joinedAt: '2026-05-04T08:00:00.000Z' };

export const peopleSuccesses: Readonly<Record<string, SuccessResponse[]>> = {
  'broadcast:getMe': [
    {
      status: '200',
      description: 'Who is calling: a person (with their role) or an API key',
      content: json(
        broadcastEnvelope(me, 200),
        envelopeExample(200, 'Signed in as a person with the campaign-manager role', {
          organizationId: 'org_demo',
          actor: 'person',
          role: ana.role,
          personId: ana.personId,
          email: ana.email,
        }),
      ),
    },
  ],
  'broadcast:listPeople': [
    {
      status: '200',
      description: 'The organization’s people, in e-mail order',
      content: json(broadcastEnvelope(obj({ people: arrayOf(person) }), 200), envelopeExample(200, '1 person(s)', { people: [ana] })),
    },
  ],
  'broadcast:invitePerson': [
    {
      status: '201',
      description: 'The person is a member with the role; how they learn to sign in is `invitation.delivery`',
      content: json(
        broadcastEnvelope(obj({ person, invitation }), 201),
        envelopeExample(201, 'Person invited', { person: ana, invitation: { delivery: 'email-sent-by-identity-provider' } }),
      ),
    },
  ],
  'broadcast:setPersonRole': [
    {
      status: '200',
      description: 'The person with their new role',
      content: json(broadcastEnvelope(person, 200), envelopeExample(200, 'Role changed to campaign-manager', ana)),
    },
  ],
  'broadcast:removePerson': [
    {
      status: '200',
      description: 'Removed: their sessions at the identity provider are ended and their next request answers 401',
      content: json(
        broadcastEnvelope(obj({ personId: str, removed: { const: true } }), 200),
        envelopeExample(200, 'Person removed; their sessions are ended', { personId: ana.personId, removed: true }),
      ),
    },
  ],
};
