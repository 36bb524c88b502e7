import { migrateTemplates as migrate } from '../../shared/upstream/migrate-templates';
import { wrapperOperation } from './pass-through.handler';

/** POST /upstream/wabas/{wabaId}/templates/migrate: `{ sourceWabaId, pageNumber }` → the migration result. */
export const migrateTemplates = wrapperOperation(async (request, { upstream }) => {
  const result = await migrate(upstream, { organizationId: request.caller.organizationId, wabaId: request.pathParameters.wabaId, body: request.body });
  return { statusCode: 200, body: result };
});
