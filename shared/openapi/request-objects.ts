/**
 * What an operation of the OpenAPI document takes (its Parameter Objects and Request Body Object):
 * path and query parameters and JSON bodies from the handlers' valibot schemas (`request-schemas.ts`)
 * or, for /upstream, the upstream route table; the headers some routes read; the raw and multipart
 * bodies the manifest names.
 */
import { jsonSchemaOf } from './json-schema-of';
import type { RouteDefinition } from '../../runtime-contract/route-manifest';
import type { UpstreamRouteSpec } from '../../runtime-contract/upstream-routes';
import { requestExamples, requestSchemas } from './request-schemas';
import type { JsonSchema } from './schema-builders';

const pathParameterNames = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);

export type ParameterObject = {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
  description?: string;
};

export function parametersOf(route: RouteDefinition, upstream: UpstreamRouteSpec | undefined): ParameterObject[] {
  const schemas = requestSchemas[`${route.surface}:${route.operation}`];
  const pathSchema = schemas?.path ? jsonSchemaOf(schemas.path) : undefined;
  const parameters: ParameterObject[] = pathParameterNames(route.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: ((pathSchema?.properties as Record<string, JsonSchema> | undefined)?.[name] ?? { type: 'string' }) as JsonSchema,
  }));
  if (schemas?.query) {
    const query = jsonSchemaOf(schemas.query);
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, JsonSchema>)) {
      parameters.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  if (upstream) {
    const required = new Set([...(upstream.requiredQuery ?? []), ...(upstream.fieldExpansion?.required ?? [])]);
    const names = new Set([
      ...(upstream.method === 'GET' ? ['fields'] : []),
      ...(upstream.query ?? []),
      ...required,
      ...(upstream.fieldExpansion?.optional ?? []),
    ]);
    for (const name of names) parameters.push({ name, in: 'query', required: required.has(name), schema: { type: 'string' } });
  }
  if (route.operation === 'sendTemplateBroadcast' || route.operation === 'followUp' || route.operation === 'campaignFollowUp') {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string' },
      description: 'One logical broadcast: a retry with the same key and body gets the first answer and sends nothing twice.',
    });
  }
  if (route.auth === 'meta-signature' && route.method === 'POST') {
    parameters.push({
      name: 'X-Hub-Signature-256',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^sha256=' },
      description: 'HMAC-SHA256 of the raw body with the Meta app secret.',
    });
  }
  if (route.auth === 'meta-signature' && route.method === 'GET') {
    for (const name of ['hub.mode', 'hub.verify_token', 'hub.challenge']) parameters.push({ name, in: 'query', required: true, schema: { type: 'string' } });
  }
  return parameters;
}

function upstreamBodySchema(upstream: UpstreamRouteSpec): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const name of upstream.requiredBody ?? []) properties[name] = {};
  for (const [name, values] of Object.entries(upstream.bodyEnums ?? {})) properties[name] = { enum: [...values] };
  return { type: 'object', properties, required: [...(upstream.requiredBody ?? [])], additionalProperties: true };
}

export function requestBodyOf(route: RouteDefinition, upstream: UpstreamRouteSpec | undefined): Record<string, unknown> | undefined {
  const kind = route.body ?? (route.method === 'GET' || route.method === 'DELETE' ? 'none' : 'json');
  if (kind === 'none') return undefined;
  if (kind === 'raw') {
    return {
      required: true,
      description: 'Meta’s webhook batch, signed as sent (the exact bytes are verified).',
      content: { 'application/json': { schema: { type: 'object' } } },
    };
  }
  if (kind === 'multipart') {
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
            required: ['file'],
            additionalProperties: true,
          },
        },
      },
    };
  }
  const key = `${route.surface}:${route.operation}`;
  const schema = requestSchemas[key]?.body;
  const example = requestExamples[key];
  return {
    required: true,
    content: {
      'application/json': {
        schema: schema ? jsonSchemaOf(schema) : upstream ? upstreamBodySchema(upstream) : { type: 'object' },
        ...(example === undefined ? {} : { example }),
      },
    },
  };
}
