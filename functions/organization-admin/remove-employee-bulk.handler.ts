import { httpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import type { OrganizationServices } from '../../shared/organizations/organization-services';
import { removeEmployeesBodySchema } from '../../shared/organizations/remove-employees';

/**
 * POST /v2/organizations/public/remove-employee-bulk. Every 400 of this route reads "No email IDs
 * provided" and every 5xx "Something went wrong while removing employees" (the manifest's wording).
 */
export const removeEmployeeBulk = httpOperation('organization-token', async (request, { organizations }: { organizations: OrganizationServices }) => {
  const caller = request.caller;
  const body = parseRequest(removeEmployeesBodySchema, request.body);
  const result = await organizations.removeEmployees({ organizationId: caller.organizationId, emails: body.emails, removedBy: caller.credentialId });
  const message =
    result.notFoundEmails.length === 0
      ? 'Employees removed successfully'
      : `${result.removedEmails.length} employee(s) removed; ${result.notFoundEmails.length} e-mail address(es) matched no employee`;
  return { statusCode: 200, body: { statusCode: 200, status: 'success', message, data: result } };
});
