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
