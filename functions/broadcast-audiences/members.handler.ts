import { removeMembers as remove, upsertMembers as upsert } from '../../shared/audiences/member-use-cases';
import type { AudiencePorts } from '../../shared/audiences/audience-use-cases';
import { memberRowsBodySchema } from '../../shared/audiences/member-rows.schema';
import { httpOperation } from '../../shared/http/http-operation';
import { idempotencyKeyOf } from '../../shared/broadcast/idempotency-key';
import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { parseRequest } from '../../shared/http/validation';
import { audienceIdOf } from './audience-id';

export const upsertMembers = httpOperation('broadcast-api-key', async (request, ports: AudiencePorts) => {
  const audienceId = audienceIdOf(request.pathParameters);
  const { members } = parseRequest(memberRowsBodySchema, request.body);
  const { replayed, ...data } = await upsert(ports, request.caller, audienceId, members, { idempotencyKey: idempotencyKeyOf(request.headers) });
  // A retry answered from the key's first answer says so (nothing was written again).
  const headers: Record<string, string> = replayed ? { 'Idempotent-Replayed': 'true' } : {};
  return { statusCode: 200, headers, body: broadcastEnvelope(200, `${data.added} added, ${data.updated} updated, ${data.invalid.length} invalid`, data) };
});

export const removeMembers = httpOperation('broadcast-api-key', async (request, ports: AudiencePorts) => {
  const audienceId = audienceIdOf(request.pathParameters);
  const { members } = parseRequest(memberRowsBodySchema, request.body);
  const data = await remove(ports, request.caller, audienceId, members);
  return { statusCode: 200, body: broadcastEnvelope(200, `${data.removed} removed, ${data.invalid.length} invalid`, data) };
});
