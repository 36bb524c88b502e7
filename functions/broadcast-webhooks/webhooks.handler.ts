import { httpOperation } from '../../shared/http/http-operation';
import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { parseRequest } from '../../shared/http/validation';
import { WebhookEndpointNotFoundError } from '../../shared/customer-events/errors';
import { endpointRegistrationSchema, redeliveryRequestOf, redeliverySchema } from '../../shared/customer-events/webhook-endpoint.schema';
import {
  deleteEndpoint,
  listEndpoints,
  redeliverEvents,
  registerEndpoint,
  sendTestEvent,
  viewOf,
  type EndpointDeliveryPorts,
  type EndpointRegistrationPorts,
} from '../../shared/customer-events/webhook-endpoints';

/** Anything that is not an endpoint id shape cannot name one: answered as unknown, without a lookup. */
const WEBHOOK_ID = /^whk_[A-Za-z0-9_-]{1,64}$/;
const webhookIdOf = (parameters: Readonly<Record<string, string>>): string => {
  const id = parameters.webhookId ?? '';
  if (!WEBHOOK_ID.test(id)) throw new WebhookEndpointNotFoundError();
  return id;
};

export const registerWebhook = httpOperation('broadcast-api-key', async (request, ports: EndpointRegistrationPorts) => {
  const { endpoint, secret } = await registerEndpoint(ports, request.caller, parseRequest(endpointRegistrationSchema, request.body));
  const data = { id: endpoint.id, url: endpoint.url, events: endpoint.events, secret };
  return { statusCode: 201, body: broadcastEnvelope(201, 'Webhook endpoint registered; store the secret now, it is not shown again', data) };
});

export const listWebhooks = httpOperation('broadcast-api-key', async (request, ports: EndpointRegistrationPorts) => {
  const webhooks = (await listEndpoints(ports, request.caller)).map(viewOf);
  return { statusCode: 200, body: broadcastEnvelope(200, `${webhooks.length} webhook endpoint(s)`, { webhooks }) };
});

export const deleteWebhook = httpOperation('broadcast-api-key', async (request, ports: EndpointRegistrationPorts) => {
  const id = webhookIdOf(request.pathParameters);
  await deleteEndpoint(ports, request.caller, id);
  return { statusCode: 200, body: broadcastEnvelope(200, 'Webhook endpoint deleted', { id }) };
});

export const testWebhook = httpOperation('broadcast-api-key', async (request, ports: EndpointDeliveryPorts) => {
  const event = await sendTestEvent(ports, request.caller, webhookIdOf(request.pathParameters));
  return { statusCode: 202, body: broadcastEnvelope(202, 'Test event queued for delivery', { eventId: event.id }) };
});

export const redeliverWebhook = httpOperation('broadcast-api-key', async (request, ports: EndpointDeliveryPorts) => {
  const id = webhookIdOf(request.pathParameters);
  const { queued } = await redeliverEvents(ports, request.caller, id, redeliveryRequestOf(parseRequest(redeliverySchema, request.body)));
  return { statusCode: 202, body: broadcastEnvelope(202, `${queued} event(s) queued for redelivery`, { queued }) };
});
