/**
 * Every answer the integration suite receives is checked against the generated OpenAPI document:
 * the operation (method + path template), the status (exact, then `4XX`-style ranges), the media
 * type, the JSON body (ajv, JSON Schema 2020-12) and the headers the document requires. Violations
 * are collected; `openapi-conformance.setup.ts` fails the test that produced one. Validators are
 * compiled once per (operation, status, media type) per process.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument, type OpenApiDocument, type OpenApiOperation } from '../../shared/openapi/openapi-document';

export interface ConformanceViolation {
  method: string;
  url: string;
  status: number;
  problem: string;
}

interface Matcher {
  template: string;
  pattern: RegExp;
  staticSegments: number;
}

let documentCache: OpenApiDocument | undefined;
let matchers: Matcher[] | undefined;
let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();
const violations: ConformanceViolation[] = [];

export const openApiDocument = (): OpenApiDocument => (documentCache ??= buildOpenApiDocument());

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function matchersOf(document: OpenApiDocument): Matcher[] {
  return (matchers ??= Object.keys(document.paths)
    .map((template) => {
      const segments = template.split('/').filter(Boolean);
      const pattern = segments.map((segment) => (/^\{\w+\}$/.test(segment) ? '[^/]+' : escapeRegExp(segment))).join('/');
      return { template, pattern: new RegExp(`^/${pattern}/?$`), staticSegments: segments.filter((segment) => !segment.startsWith('{')).length };
    })
    // The most specific template first, as the gateways route (`/messages/read` before `/messages/{id}`).
    .sort((a, b) => b.staticSegments - a.staticSegments));
}

/** The documented operation answering `method path`, if the document has one. */
export function operationFor(method: string, path: string): { template: string; operation: OpenApiOperation } | undefined {
  const document = openApiDocument();
  const bare = path.split('?')[0] as string;
  for (const matcher of matchersOf(document)) {
    if (!matcher.pattern.test(bare)) continue;
    const operation = document.paths[matcher.template]?.[method.toLowerCase()];
    if (operation) return { template: matcher.template, operation };
  }
  return undefined;
}

const componentsSchemaId = 'https://openapi.invalid/components';

function validatorFor(key: string, schema: unknown): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    if (!ajv) {
      ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      // The component schemas once, as a schema of their own that each answer's schema refers to:
      // carried in every compiled schema, all of them were checked and traversed again for each
      // operation and status (50-80 ms a compile; an integration suite compiles 10-30).
      const components = (openApiDocument().components.schemas ?? {}) as Record<string, unknown>;
      ajv.addSchema({ $id: componentsSchemaId, $defs: JSON.parse(JSON.stringify(components).replaceAll('"#/components/schemas/', '"#/$defs/')) });
    }
    const local = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${componentsSchemaId}#/$defs/`)) as Record<string, unknown>;
    validate = ajv.compile(local);
    validators.set(key, validate);
  }
  return validate;
}

/** A response object, its `$ref` (`#/components/responses/…`) followed. */
const resolved = (response: Record<string, unknown>): Record<string, unknown> => {
  const ref = response.$ref;
  if (typeof ref !== 'string') return response;
  const name = ref.replace('#/components/responses/', '');
  const target = (openApiDocument().components.responses as Record<string, Record<string, unknown>> | undefined)?.[name];
  if (!target) throw new Error(`unresolvable response reference ${ref}`);
  return target;
};

const mediaTypeOf = (contentType: string | null): string | undefined => contentType?.split(';')[0]?.trim().toLowerCase() || undefined;

/** Problems of one answer against the document (empty: it conforms, or no operation documents its route). */
export function checkAnswer(answer: { method: string; path: string; status: number; headers: Headers; body: unknown; rawText?: string }): string[] {
  const found = operationFor(answer.method, answer.path);
  if (!found) return [];
  const { template, operation } = found;
  const status = String(answer.status);
  const responseKey = [status, `${status[0]}XX`, 'default'].find((key) => key in operation.responses);
  if (!responseKey) return [`status ${status} is not documented for ${answer.method} ${template}`];
  const response = resolved(operation.responses[responseKey] as Record<string, unknown>) as {
    content?: Record<string, { schema: unknown }>;
    headers?: Record<string, { required?: boolean }>;
  };
  const problems: string[] = [];
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    if (header.required && !answer.headers.has(name)) problems.push(`header ${name} is required by ${answer.method} ${template} ${responseKey}`);
  }
  const mediaType = mediaTypeOf(answer.headers.get('content-type'));
  const empty = answer.rawText === undefined ? answer.body === '' || answer.body === undefined : answer.rawText === '';
  if (!response.content) {
    if (!empty) problems.push(`${answer.method} ${template} ${responseKey} documents no body, got ${mediaType ?? 'a body'}`);
    return problems;
  }
  const media = mediaType ? (response.content[mediaType] ?? response.content[`${mediaType.split('/')[0]}/*`] ?? response.content['*/*']) : undefined;
  if (!media)
    return [
      ...problems,
      `media type ${mediaType ?? '(none)'} is not documented for ${answer.method} ${template} ${responseKey} (documented: ${Object.keys(response.content).join(', ')})`,
    ];
  if (mediaType !== 'application/json') return problems;
  const validate = validatorFor(`${answer.method} ${template} ${responseKey}`, media.schema);
  if (!validate(answer.body)) {
    const errors = (validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath || '(body)'} ${error.message ?? ''}`.trim());
    problems.push(`body does not match ${answer.method} ${template} ${responseKey}: ${errors.join('; ')}; body: ${JSON.stringify(answer.body).slice(0, 300)}`);
  }
  return problems;
}

/** Checks an answer and records its violations for the running test. */
export function recordAnswer(answer: Parameters<typeof checkAnswer>[0]): void {
  for (const problem of checkAnswer(answer)) violations.push({ method: answer.method, url: answer.path, status: answer.status, problem });
}

/** The violations recorded since the last call. */
export function takeViolations(): ConformanceViolation[] {
  return violations.splice(0, violations.length);
}
