/**
 * The operators' webhook commands (`npm run admin -- add-webhook …`), over the same use cases as
 * the broadcast routes: the same url rules, address policy, limit and one-time secret. The admin
 * CLI parses the flags; an operator acts for the organization named by --org.
 */
import { RequestValidationError } from '../http/errors';
import { parseRequest } from '../http/validation';
import { endpointRegistrationSchema } from './webhook-endpoint.schema';
import { deleteEndpoint, listEndpoints, registerEndpoint, viewOf, type EndpointRegistrationPorts } from './webhook-endpoints';

export type WebhookAdminFlags = Readonly<Record<string, string | undefined>>;

export interface WebhookAdminCommand {
  summary: string;
  flags: ReadonlyArray<{ name: string; description: string; required?: boolean }>;
  run(ports: EndpointRegistrationPorts, flags: WebhookAdminFlags): Promise<unknown>;
}

function required(flags: WebhookAdminFlags, name: string): string {
  const value = flags[name]?.trim();
  if (!value) throw new RequestValidationError(`--${name} is required`);
  return value;
}

const organizationFlag = { name: 'org', description: 'Organization id (org_…)', required: true };

export const webhookAdminCommands: Readonly<Record<string, WebhookAdminCommand>> = {
  'add-webhook': {
    summary: 'Register a webhook endpoint for an organization (prints its signing secret once)',
    flags: [
      organizationFlag,
      { name: 'url', description: 'https URL of the receiver (http and loopback only in the local runtime)', required: true },
      {
        name: 'events',
        description:
          'Comma-separated event types: message.status,job.completed,message.received,template.status,template.updated,job.paused,campaign.started,campaign.completed',
        required: true,
      },
    ],
    run: async (ports, flags) => {
      const events = required(flags, 'events')
        .split(',')
        .map((type) => type.trim())
        .filter(Boolean);
      const registration = parseRequest(endpointRegistrationSchema, { url: required(flags, 'url'), events }, 'flags');
      const { endpoint, secret } = await registerEndpoint(ports, { organizationId: required(flags, 'org') }, registration);
      return { ...viewOf(endpoint), secret, notice: 'Store this secret now: it is kept only encrypted and cannot be shown again.' };
    },
  },
  'list-webhooks': {
    summary: 'List the webhook endpoints of an organization (no secrets)',
    flags: [organizationFlag],
    run: async (ports, flags) => ({ webhooks: (await listEndpoints(ports, { organizationId: required(flags, 'org') })).map(viewOf) }),
  },
  'remove-webhook': {
    summary: 'Delete a webhook endpoint of an organization',
    flags: [organizationFlag, { name: 'id', description: 'Endpoint id (whk_…)', required: true }],
    run: async (ports, flags) => {
      const id = required(flags, 'id');
      await deleteEndpoint(ports, { organizationId: required(flags, 'org') }, id);
      return { id, deleted: true };
    },
  },
};

export const isWebhookAdminCommand = (name: string): boolean => Object.hasOwn(webhookAdminCommands, name);

/** Runs a command by name, refusing flags it does not know. */
export async function runWebhookAdminCommand(ports: EndpointRegistrationPorts, name: string, flags: WebhookAdminFlags): Promise<unknown> {
  const command = webhookAdminCommands[name];
  if (!command) throw new RequestValidationError(`Unknown command "${name}"`);
  const known = new Set(command.flags.map((flag) => flag.name));
  const unknown = Object.keys(flags).filter((flag) => !known.has(flag));
  if (unknown.length > 0) throw new RequestValidationError(`Unknown flag(s) for ${name}: ${unknown.map((flag) => `--${flag}`).join(', ')}`);
  return command.run(ports, flags);
}
