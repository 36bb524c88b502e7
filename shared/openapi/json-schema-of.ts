/** Valibot schemas as JSON Schema for the OpenAPI document (the handlers' own schemas: one source for rules and reference). */
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { templateParametersForms, templateParametersSchema } from '../templates/template-content.schema';
import type { JsonSchema } from './schema-builders';

/** Valibot schema → JSON Schema 2020-12 (OpenAPI 3.1's dialect); rules JSON Schema cannot state (checks, transforms) are left to the code. */
export const jsonSchemaOf = (schema: v.GenericSchema): JsonSchema => {
  // `$defs` holds the lazy schemas' definitions, which overrideSchema states inline instead.
  const {
    $schema: _dialect,
    $defs: _definitions,
    ...rest
  } = toJsonSchema(schema, { target: 'draft-2020-12', errorMode: 'ignore', typeMode: 'input', overrideSchema }) as JsonSchema;
  return rest;
};

/**
 * Body values are an array or an object of values by name, chosen by the value's kind (a lazy
 * schema, which the converter would turn into an unresolvable `$defs` reference): stated as `anyOf`.
 */
function overrideSchema(context: { valibotSchema: unknown }): JsonSchema | undefined {
  if (context.valibotSchema !== templateParametersSchema) return undefined;
  return {
    anyOf: templateParametersForms.map((form) => jsonSchemaOf(form)),
    description: 'Body values: an array in placeholder order ({{1}}, {{2}}, …), or an object of values by name for a template created with named parameters',
    examples: [['Ada', 'A-17'], { first_name: 'Ada', store: 'Demo Retail' }],
  };
}
