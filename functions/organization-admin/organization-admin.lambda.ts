import { createGroupHandler } from '../../shared/http/create-group-handler';
import { getServices } from '../composition';
import { removeEmployeeBulk } from './remove-employee-bulk.handler';

export const handler = createGroupHandler({
  group: 'organization-admin',
  operations: { removeEmployeeBulk },
  dependencies: () => {
    const services = getServices();
    return { ...services.http, organizations: services.organizations };
  },
});
