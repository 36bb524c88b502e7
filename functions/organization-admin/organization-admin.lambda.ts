import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeOrganizationAdmin } from './organization-admin.composition';
import { removeEmployeeBulk } from './remove-employee-bulk.handler';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createGroupHandler({
    group: 'organization-admin',
    operations: { removeEmployeeBulk },
    dependencies: composeFunction('organization-admin', env, composeOrganizationAdmin, overrides),
  });

export const handler = createHandler(process.env);
