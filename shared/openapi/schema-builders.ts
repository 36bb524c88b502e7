/** The JSON Schema pieces the response and error schemas are written with. */
export type JsonSchema = Record<string, unknown>;

export const str: JsonSchema = { type: 'string' };
export const int: JsonSchema = { type: 'integer' };
export const bool: JsonSchema = { type: 'boolean' };
export const nullableString: JsonSchema = { type: ['string', 'null'] };
export const anyObject: JsonSchema = { type: 'object' };
export const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  required,
});
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
/** A JSON content entry of a response (`content` of OpenAPI), with its example when given. */
export const json = (schema: JsonSchema, example?: unknown) => ({ 'application/json': example === undefined ? { schema } : { schema, example } });

/** One success answer of an operation as the document lists it. */
export interface SuccessResponse {
  status: string;
  description: string;
  /** Absent: no body (204). */
  content?: Record<string, { schema: JsonSchema; example?: unknown }>;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}
