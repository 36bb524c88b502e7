import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeBroadcastAudit } from './broadcast-audit.composition';
import { listAuditLog } from './list-audit-log.handler';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createGroupHandler({
    group: 'broadcast-audit',
    operations: { listAuditLog },
    dependencies: composeFunction('broadcast-audit', env, composeBroadcastAudit, overrides),
  });

export const handler = createHandler(process.env);
