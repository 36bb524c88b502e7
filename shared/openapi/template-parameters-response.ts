/** The template list's `parameters` (shared/templates/template-requirements.ts TemplateRequirements) as JSON Schema. */
import { arrayOf, bool, int, obj, str, type JsonSchema } from './schema-builders';

const header: JsonSchema = {
  ...obj({ type: { type: 'string', enum: ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'] }, dynamic: bool, name: str, maxLength: int }, ['type']),
  description: 'The header a send must give: a media header of this type, a location, or (TEXT with `dynamic`) the text of its one variable',
};
const body: JsonSchema = {
  ...obj({ format: { type: 'string', enum: ['POSITIONAL', 'NAMED'] }, count: int, names: arrayOf(str) }, ['format']),
  description: 'POSITIONAL: `count` values in `templateParams` as an array; NAMED: an object with exactly `names`',
};
const button: JsonSchema = {
  ...obj({ index: int, type: str, dynamic: bool, name: str, maxLength: int }, ['index', 'type', 'dynamic']),
  description: '`dynamic`: the send must give this button a value (a URL variable, a copy code); a QUICK_REPLY takes an optional payload',
};

export const templateParametersResponse: JsonSchema = {
  ...obj(
    {
      sendable: bool,
      unsupported: arrayOf(str),
      header,
      body,
      buttons: arrayOf(button),
      carousel: {
        ...obj({ cards: int, header, body, buttons: arrayOf(button) }, ['cards', 'body', 'buttons']),
        description: 'Exactly `cards` entries in `carousel`, each with this header, body and buttons',
      },
      limitedTimeOffer: obj({ hasExpiration: bool }),
    },
    ['sendable', 'body'],
  ),
  description:
    'What a send of the template must carry (docs/BROADCAST.md "Rich templates"); `sendable: false` names in `unsupported` the parts a broadcast cannot fill',
};
