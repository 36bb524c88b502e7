import type { AudiencePorts } from '../../shared/audiences/audience-use-cases';
import { listMembersQuerySchema } from '../../shared/audiences/audience.schema';
import { listMembers as list, membersCsv } from '../../shared/audiences/member-use-cases';
import { httpOperation } from '../../shared/http/http-operation';
import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { parseRequest } from '../../shared/http/validation';
import { audienceIdOf } from './audience-id';

export const listMembers = httpOperation('broadcast-api-key', async (request, ports: AudiencePorts) => {
  const audienceId = audienceIdOf(request.pathParameters);
  const { format, ...query } = parseRequest(listMembersQuerySchema, request.query, 'query');
  const page = await list(ports, request.caller, audienceId, query);
  if (format !== 'csv') return { statusCode: 200, body: broadcastEnvelope(200, `${page.members.length} member(s)`, page) };
  // One page per request: the next page's cursor travels in a header, the body is only the CSV.
  const headers: Record<string, string> = {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${audienceId}-members.csv"`,
  };
  if (page.nextCursor !== null) headers['X-Next-Cursor'] = page.nextCursor;
  return { statusCode: 200, headers, body: null, textBody: membersCsv(page.members) };
});
