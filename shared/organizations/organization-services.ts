/** Organization administration bound to its ports (built by functions/composition.ts). */
import type { RemoveEmployeesResult } from '../tenancy/membership-use-cases';
import { removeEmployeesByEmail, type RemoveEmployeesByEmailInput, type RemoveEmployeesPorts } from './remove-employees';

export interface OrganizationServices {
  /** Throws NoEmailAddressesError (400) or NoEmployeesFoundError (404). */
  removeEmployees(input: RemoveEmployeesByEmailInput): Promise<RemoveEmployeesResult>;
}

export function bindOrganizationServices(ports: RemoveEmployeesPorts): OrganizationServices {
  return { removeEmployees: (input) => removeEmployeesByEmail(ports, input) };
}
