/** The organization's contact policy, its frequency cap (docs/CAMPAIGNS.md "Frequency caps"): read by anyone of it, set and removed by an admin or the organization's key. */
import { httpOperation } from '../../shared/http/http-operation';
import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { parseRequest } from '../../shared/http/validation';
import { getContactPolicy, removeContactPolicy, setContactPolicy, type ContactPolicyPorts } from '../../shared/send-rules/contact-policy';
import { contactPolicyRequestSchema } from '../../shared/send-rules/contact-policy.schema';
import type { KeyScope } from '../../shared/tenancy/tenancy-entities';

type ContactPolicyRoutePorts = { contactPolicies: ContactPolicyPorts };

const editorOf = (caller: { organizationId: string; credentialId: string; scope?: KeyScope }) => ({
  organizationId: caller.organizationId,
  by: caller.credentialId,
  ...(caller.scope ? { scope: caller.scope } : {}),
});

export const getContactPolicyOperation = httpOperation('broadcast-api-key', async (request, ports: ContactPolicyRoutePorts) => {
  const view = await getContactPolicy(ports.contactPolicies, request.caller.organizationId);
  return { statusCode: 200, body: broadcastEnvelope(200, view.policy ? 'Contact policy' : 'No contact policy: messages are not capped', view) };
});

export const setContactPolicyOperation = httpOperation('broadcast-api-key', async (request, ports: ContactPolicyRoutePorts) => {
  const view = await setContactPolicy(ports.contactPolicies, editorOf(request.caller), parseRequest(contactPolicyRequestSchema, request.body));
  return { statusCode: 200, body: broadcastEnvelope(200, 'Contact policy set', view) };
});

export const removeContactPolicyOperation = httpOperation('broadcast-api-key', async (request, ports: ContactPolicyRoutePorts) => {
  const view = await removeContactPolicy(ports.contactPolicies, editorOf(request.caller));
  return { statusCode: 200, body: broadcastEnvelope(200, 'Contact policy removed: messages are not capped', view) };
});
