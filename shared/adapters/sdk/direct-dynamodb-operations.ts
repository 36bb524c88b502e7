/**
 * The wire shapes of the item operations direct-dynamodb-calls.ts sends: which top-level fields of
 * each operation hold attribute-value maps (DynamoDB's API reference), converted with the document
 * client's marshalling, and binary values as the JSON protocol carries them (base64).
 */
export type Values = Record<string, unknown>;
export type Input = Record<string, unknown>;

/** The top-level fields of each operation that hold attribute-value maps (DynamoDB's API reference). */
export interface Operation {
  name: string;
  marshalIn(input: Input, values: (map: Values) => Values): Input;
  unmarshalOut(output: Input, items: (map: Values) => Values): Input;
}

const mapFields =
  (fields: readonly string[]) =>
  (data: Input, convert: (map: Values) => Values): Input => {
    const converted = { ...data };
    for (const field of fields) if (converted[field] !== undefined) converted[field] = convert(converted[field] as Values);
    return converted;
  };

const itemLists =
  (fields: readonly string[]) =>
  (data: Input, convert: (map: Values) => Values): Input => {
    const converted = { ...data };
    for (const field of fields) if (Array.isArray(converted[field])) converted[field] = (converted[field] as Values[]).map(convert);
    return converted;
  };

/** `{ [table]: [{ PutRequest: { Item } } | { DeleteRequest: { Key } }] }` both ways (RequestItems, UnprocessedItems). */
const writeRequests = (tables: unknown, convert: (map: Values) => Values) =>
  tables === undefined
    ? undefined
    : Object.fromEntries(
        Object.entries(tables as Record<string, Values[]>).map(([table, requests]) => [
          table,
          requests.map((request) =>
            request.PutRequest
              ? { PutRequest: { Item: convert((request.PutRequest as Values).Item as Values) } }
              : { DeleteRequest: { Key: convert((request.DeleteRequest as Values).Key as Values) } },
          ),
        ]),
      );

/** `{ [table]: { Keys: [...], ... } }` both ways (RequestItems, UnprocessedKeys). */
const keysByTable = (tables: unknown, convert: (map: Values) => Values) =>
  tables === undefined
    ? undefined
    : Object.fromEntries(
        Object.entries(tables as Record<string, Values>).map(([table, request]) => [table, { ...request, Keys: (request.Keys as Values[]).map(convert) }]),
      );

/**
 * The operations sent directly, by name. Named, not by command class: importing lib-dynamodb's seven
 * classes here would put every operation's SDK command and schema into each function's bundle.
 */
export const operations = new Map<string, Operation>([
  ['GetItem', { name: 'GetItem', marshalIn: mapFields(['Key']), unmarshalOut: mapFields(['Item']) }],
  ['PutItem', { name: 'PutItem', marshalIn: mapFields(['Item', 'ExpressionAttributeValues']), unmarshalOut: mapFields(['Attributes']) }],
  ['UpdateItem', { name: 'UpdateItem', marshalIn: mapFields(['Key', 'ExpressionAttributeValues']), unmarshalOut: mapFields(['Attributes']) }],
  ['DeleteItem', { name: 'DeleteItem', marshalIn: mapFields(['Key', 'ExpressionAttributeValues']), unmarshalOut: mapFields(['Attributes']) }],
  [
    'Query',
    {
      name: 'Query',
      marshalIn: mapFields(['ExpressionAttributeValues', 'ExclusiveStartKey']),
      unmarshalOut: (output, convert) => mapFields(['LastEvaluatedKey'])(itemLists(['Items'])(output, convert), convert),
    },
  ],
  [
    'BatchWriteItem',
    {
      name: 'BatchWriteItem',
      marshalIn: (input, convert) => ({ ...input, RequestItems: writeRequests(input.RequestItems, convert) }),
      unmarshalOut: (output, convert) => ({ ...output, UnprocessedItems: writeRequests(output.UnprocessedItems, convert) }),
    },
  ],
  [
    'BatchGetItem',
    {
      name: 'BatchGetItem',
      marshalIn: (input, convert) => ({ ...input, RequestItems: keysByTable(input.RequestItems, convert) }),
      unmarshalOut: (output, convert) => ({
        ...output,
        Responses:
          output.Responses === undefined
            ? undefined
            : Object.fromEntries(Object.entries(output.Responses as Record<string, Values[]>).map(([table, items]) => [table, items.map(convert)])),
        UnprocessedKeys: keysByTable(output.UnprocessedKeys, convert),
      }),
    },
  ],
]);

/**
 * A request's JSON, binary attribute values as base64 (the JSON protocol's form). The replacer, a
 * call per key, runs only when a plain stringify shows a blob (`"B":{…}`, a Uint8Array as an object).
 */
export function requestJson(input: Input): string {
  const plain = JSON.stringify(input);
  return plain.includes('"B":{') || plain.includes('"BS":[{') ? JSON.stringify(input, binaryAsBase64) : plain;
}

/** An answer's JSON, `B` and `BS` values as Uint8Arrays; the reviver (3x a parse) only when the text has either. */
export function answerOf(text: string): Input {
  if (text === '') return {};
  return JSON.parse(text, text.includes('"B":') || text.includes('"BS":') ? base64AsBinary : undefined) as Input;
}

/** The replacer reads the holder's own value, since a Buffer's `toJSON` has already run on the one it is given. */
function binaryAsBase64(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const original = this[key];
  return original instanceof Uint8Array ? Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString('base64') : value;
}

/** A blob as the SDK gives it: a Uint8Array (a Buffer's `toString` would read it as text). */
const binaryOf = (base64: string): Uint8Array => {
  const bytes = Buffer.from(base64, 'base64');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};

/** Only an attribute value's `B` or `BS` holds a string there: an attribute so named holds an object. */
function base64AsBinary(key: string, value: unknown): unknown {
  if (key === 'B' && typeof value === 'string') return binaryOf(value);
  if (key === 'BS' && Array.isArray(value) && value.every((entry) => typeof entry === 'string')) return value.map((entry) => binaryOf(entry as string));
  return value;
}

/** Parameters of the API's first version, which only the SDK's path marshals. */
export const LEGACY_PARAMETERS = ['Expected', 'AttributeUpdates', 'KeyConditions', 'QueryFilter'] as const;
