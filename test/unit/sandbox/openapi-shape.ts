/**
 * Just enough OpenAPI 3 schema checking to hold sandbox responses against Meta's published
 * description: $ref, allOf/oneOf/anyOf, type, nullable, enum, required, properties, items.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { load } from 'js-yaml';

const SPEC_PATH = process.env.META_OPENAPI_SPEC ?? resolve(__dirname, '../../../../shared/meta/business-messaging-api_v23.0.yaml');

/**
 * Meta's description, when the checkout has it (`../shared/meta` beside the project, not part of
 * the repository); undefined elsewhere, and the suites using it are skipped. The sandbox never
 * reads the file at runtime.
 */
export function loadMetaSpec(): OpenApiDocument | undefined {
  if (!existsSync(SPEC_PATH)) return undefined;
  return load(readFileSync(SPEC_PATH, 'utf8')) as OpenApiDocument;
}

/** Why the suites holding the sandbox against Meta's description did not run, said in jest's output. */
export const metaSpecMissing = `Meta's OpenAPI description is absent (${SPEC_PATH}; the checkout's ../shared/meta, or META_OPENAPI_SPEC): skipped`;

let missingSpecWarned = false;

/**
 * `describe` when Meta's description is there; otherwise a skipped suite whose name says why, and
 * one line on stderr per test file, so the skip is never silent (README "Tests and benchmarks").
 */
export function describeIfMetaSpec(spec: OpenApiDocument | undefined): (name: string, body: () => void) => void {
  if (spec !== undefined) return (name, body) => describe(name, body);
  return (name, body) => {
    // Straight to stderr: jest's reporter drops console output of a file whose every test is skipped.
    if (!missingSpecWarned) process.stderr.write(`\n[${name}] ${metaSpecMissing}\n`);
    missingSpecWarned = true;
    describe.skip(`${name} (${metaSpecMissing})`, body);
  };
}

type Schema = Record<string, any>;

export interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, Schema>; responses?: Record<string, any> };
}

export interface ShapeCheckOptions {
  /** Paths (e.g. `data[].status`) whose enum is not enforced, each for a reason the caller states. */
  ignoreEnumAt?: string[];
  /**
   * Also enforce minLength/maxLength/pattern, minItems/maxItems, minimum/maximum and `const` —
   * what a request must satisfy. Off for responses, where the YAML's examples break its own limits.
   */
  constraints?: boolean;
}

export function resolveRef(doc: OpenApiDocument, schema: Schema): Schema {
  let current = schema;
  for (let depth = 0; typeof current.$ref === 'string' && depth < 20; depth += 1) {
    const name = current.$ref.replace('#/components/schemas/', '');
    const target = doc.components.schemas[name];
    if (target === undefined) throw new Error(`unresolvable $ref ${current.$ref}`);
    current = target;
  }
  return current;
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

/** Returns one message per violation; an empty list means the value fits the schema. */
export function checkShape(doc: OpenApiDocument, rawSchema: Schema, value: unknown, options: ShapeCheckOptions = {}, path = ''): string[] {
  const schema = resolveRef(doc, rawSchema);
  const errors: string[] = [];
  const at = path === '' ? '(root)' : path;

  for (const part of schema.allOf ?? []) errors.push(...checkShape(doc, part, value, options, path));
  const alternatives: Schema[] | undefined = schema.oneOf ?? schema.anyOf;
  if (alternatives !== undefined && !alternatives.some((part) => checkShape(doc, part, value, options, path).length === 0)) {
    errors.push(`${at}: matches none of the oneOf/anyOf alternatives`);
  }
  if (value === null) {
    if (schema.nullable !== true && schema.type !== undefined) errors.push(`${at}: null but not nullable`);
    return errors;
  }
  if (typeof schema.type === 'string' && !typeMatches(schema.type, value)) {
    errors.push(`${at}: expected ${schema.type}, got ${JSON.stringify(value)}`);
    return errors;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value) && !(options.ignoreEnumAt ?? []).includes(path)) {
    errors.push(`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`);
  }
  if (options.constraints) errors.push(...constraintErrors(schema, value, at));
  if (typeMatches('object', value)) {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      if (!(key in object)) errors.push(`${at}: missing required property ${key}`);
    }
    for (const [key, propertySchema] of Object.entries<Schema>(schema.properties ?? {})) {
      if (key in object) errors.push(...checkShape(doc, propertySchema, object[key], options, path === '' ? key : `${path}.${key}`));
    }
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    for (const item of value) errors.push(...checkShape(doc, schema.items, item, options, `${path}[]`));
  }
  return errors;
}

function constraintErrors(schema: Schema, value: unknown, at: string): string[] {
  const errors: string[] = [];
  if ('const' in schema && schema.const !== value) errors.push(`${at}: must be ${JSON.stringify(schema.const)}`);
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) errors.push(`${at}: shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) errors.push(`${at}: longer than ${schema.maxLength}`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value)) errors.push(`${at}: does not match ${schema.pattern}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) errors.push(`${at}: fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) errors.push(`${at}: more than ${schema.maxItems} items`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) errors.push(`${at}: below ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) errors.push(`${at}: above ${schema.maximum}`);
  }
  return errors;
}

/** The JSON (or other) request body schema of an operation. */
export function requestSchema(doc: OpenApiDocument, path: string, method: string, contentType = 'application/json'): Schema {
  const schema = doc.paths[path]?.[method]?.requestBody?.content?.[contentType]?.schema;
  if (schema === undefined) throw new Error(`no ${contentType} request schema for ${method.toUpperCase()} ${path}`);
  return schema;
}

/** The named request examples of an operation: `{ name: body }`. */
export function requestExamples(doc: OpenApiDocument, path: string, method: string, contentType = 'application/json'): Record<string, any> {
  const examples: Record<string, { value: unknown }> = doc.paths[path]?.[method]?.requestBody?.content?.[contentType]?.examples ?? {};
  return Object.fromEntries(Object.entries(examples).map(([name, example]) => [name, example.value]));
}

export function responseSchema(doc: OpenApiDocument, path: string, method: string, status: string): Schema {
  let response = doc.paths[path]?.[method]?.responses?.[status];
  // Some operations point at a shared response under components.responses.
  if (typeof response?.$ref === 'string') response = doc.components.responses?.[response.$ref.replace('#/components/responses/', '')];
  const schema = response?.content?.['application/json']?.schema;
  if (schema === undefined) throw new Error(`no ${status} JSON schema for ${method.toUpperCase()} ${path}`);
  return schema;
}
