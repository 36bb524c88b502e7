/**
 * Just enough OpenAPI 3 schema checking to hold sandbox responses against Meta's published
 * description: $ref, allOf/oneOf/anyOf, type, nullable, enum, required, properties, items.
 */

type Schema = Record<string, any>;

export interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, Schema> };
}

export interface ShapeCheckOptions {
  /** Paths (e.g. `data[].status`) whose enum is not enforced, each for a reason the caller states. */
  ignoreEnumAt?: string[];
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

export function responseSchema(doc: OpenApiDocument, path: string, method: string, status: string): Schema {
  const schema = doc.paths[path]?.[method]?.responses?.[status]?.content?.['application/json']?.schema;
  if (schema === undefined) throw new Error(`no ${status} JSON schema for ${method.toUpperCase()} ${path}`);
  return schema;
}
