import { callerOf } from '../../shared/http/http-operation';
import { migrateTemplates as migrate } from '../../shared/upstream/migrate-templates';
import type { WrapperOperation } from './pass-through.handler';

/** POST /upstream/wabas/{wabaId}/templates/migrate: `{ sourceWabaId, pageNumber }` → the migration result. */
export const migrateTemplates: WrapperOperation = async (request, { upstream }) => {
  const result = await migrate(upstream, { organizationId: callerOf(request).organizationId, wabaId: request.pathParameters.wabaId, body: request.body });
  return { statusCode: 200, body: result };
};
