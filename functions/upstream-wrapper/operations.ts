/**
 * The group's operations, built from the route table: the generic pass-through for every row,
 * a dedicated handler for each `special` row. A special row without a handler (or a handler
 * without a row) fails at load, not at request time.
 */
import { upstreamRoutes } from '../../runtime-contract/upstream-routes';
import { listPhoneNumbers } from './list-phone-numbers.handler';
import { migrateTemplates } from './migrate-templates.handler';
import { passThroughOperation, type WrapperOperation } from './pass-through.handler';
import { sendBulkTemplate } from './send-bulk-template.handler';
import { downloadMedia, uploadFlowJson, uploadMedia } from './uploads.handler';

export const specialOperations: Record<string, WrapperOperation> = {
  listPhoneNumbers,
  sendBulkTemplate,
  migrateTemplates,
  uploadMedia,
  uploadFlowJson,
  downloadMedia,
};

export function buildUpstreamOperations(specials: Record<string, WrapperOperation> = specialOperations): Record<string, WrapperOperation> {
  const operations: Record<string, WrapperOperation> = {};
  for (const route of upstreamRoutes) {
    if (operations[route.operation]) throw new Error(`Operation ${route.operation} appears twice in runtime-contract/upstream-routes.ts`);
    if (route.special) {
      const special = specials[route.operation];
      if (!special) throw new Error(`Special route ${route.operation} has no handler`);
      operations[route.operation] = special;
    } else {
      operations[route.operation] = passThroughOperation(route);
    }
  }
  for (const name of Object.keys(specials)) {
    if (!upstreamRoutes.some((route) => route.operation === name && route.special)) throw new Error(`Handler ${name} has no special route`);
  }
  return operations;
}
