import { httpOperation } from '../../shared/http/http-operation';
import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { parseRequest } from '../../shared/http/validation';
import { invitePerson as invite, removePerson as remove, setPersonRole as changeRole, type PeoplePorts } from '../../shared/people/manage-people';
import { listPeople as list, requirePeopleManager } from '../../shared/people/people-directory';
import { invitationSchema, roleChangeSchema } from '../../shared/people/people.schema';
import { callerView } from '../../shared/people/who-am-i';

export const getMe = httpOperation('broadcast-api-key', async (request) => {
  const me = callerView(request.caller);
  return { statusCode: 200, body: broadcastEnvelope(200, `Signed in as ${me.actor === 'person' ? 'a person' : 'an API key'} with the ${me.role} role`, me) };
});

export const listPeople = httpOperation('broadcast-api-key', async (request, ports: Pick<PeoplePorts, 'tenancy'>) => {
  requirePeopleManager(request.caller);
  const people = await list(ports.tenancy, request.caller.organizationId);
  return { statusCode: 200, body: broadcastEnvelope(200, `${people.length} person(s)`, { people }) };
});

export const invitePerson = httpOperation('broadcast-api-key', async (request, ports: PeoplePorts) => {
  const { person, invitation } = await invite(ports, request.caller, parseRequest(invitationSchema, request.body));
  const message = invitation.temporaryPassword ? 'Person invited; give them the temporary password now, it is not shown again' : 'Person invited';
  return { statusCode: 201, body: broadcastEnvelope(201, message, { person, invitation }) };
});

export const setPersonRole = httpOperation('broadcast-api-key', async (request, ports: PeoplePorts) => {
  const { role } = parseRequest(roleChangeSchema, request.body);
  const person = await changeRole(ports, request.caller, { personId: request.pathParameters.personId ?? '', role });
  return { statusCode: 200, body: broadcastEnvelope(200, `Role changed to ${person.role}`, person) };
});

export const removePerson = httpOperation('broadcast-api-key', async (request, ports: PeoplePorts) => {
  const removed = await remove(ports, request.caller, { personId: request.pathParameters.personId ?? '' });
  return { statusCode: 200, body: broadcastEnvelope(200, 'Person removed; their sessions are ended', removed) };
});
