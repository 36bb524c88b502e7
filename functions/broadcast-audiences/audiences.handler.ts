import {
  createAudience as create,
  deleteAudience as remove,
  getAudience as read,
  listAudiences as list,
  type AudiencePorts,
} from '../../shared/audiences/audience-use-cases';
import { createAudienceSchema, listAudiencesQuerySchema } from '../../shared/audiences/audience.schema';
import { httpOperation } from '../../shared/http/http-operation';
import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { parseRequest } from '../../shared/http/validation';
import { audienceIdOf } from './audience-id';

export const createAudience = httpOperation('broadcast-api-key', async (request, ports: AudiencePorts) => {
  const data = await create(ports, request.caller, parseRequest(createAudienceSchema, request.body));
  return { statusCode: 201, body: broadcastEnvelope(201, 'Audience created', data) };
});

export const listAudiences = httpOperation('broadcast-api-key', async (request, ports: AudiencePorts) => {
  const page = await list(ports, request.caller, parseRequest(listAudiencesQuerySchema, request.query, 'query'));
  return { statusCode: 200, body: broadcastEnvelope(200, `${page.audiences.length} audience(s)`, page) };
});

export const getAudience = httpOperation('broadcast-api-key', async (request, ports: AudiencePorts) => {
  const audience = await read(ports, request.caller, audienceIdOf(request.pathParameters));
  return { statusCode: 200, body: broadcastEnvelope(200, `Audience ${audience.name}`, audience) };
});

export const deleteAudience = httpOperation('broadcast-api-key', async (request, ports: AudiencePorts) => {
  const { audienceId, membersRemaining } = await remove(ports, request.caller, audienceIdOf(request.pathParameters));
  const message = membersRemaining ? 'Audience deleted; its members are still being removed: DELETE it again to continue' : 'Audience deleted';
  return { statusCode: 200, body: broadcastEnvelope(200, message, { audienceId, deleted: true }) };
});
