import fc from 'fast-check';
import { jsonTextSizer } from '../../../shared/meta-app/json-text-size';

/** The intake's measure: the bytes a text takes JSON-escaped inside the queue message. */
const escapedBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

describe("the size of a JSON value's text, from its parts", () => {
  it.each([
    ['UTF-8 bytes', (text: string) => Buffer.byteLength(text)],
    ['escaped bytes (the queue message)', escapedBytes],
  ])('equals the measure of JSON.stringify for any JSON value (%s), measured fresh or from the cache', (_name, size) => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const sizeOf = jsonTextSizer(size);
        const expected = size(JSON.stringify(value));
        expect(sizeOf(value)).toBe(expected);
        expect(sizeOf(value)).toBe(expected);
        // A new container around measured values: only the container is new.
        expect(sizeOf({ wrapped: [value, value] })).toBe(size(JSON.stringify({ wrapped: [value, value] })));
      }),
      { numRuns: 300 },
    );
  });

  it('leaves out undefined members as JSON.stringify does', () => {
    const sizeOf = jsonTextSizer((text) => text.length);
    expect(sizeOf({ a: undefined, b: 'é"\\\u0001' })).toBe(JSON.stringify({ a: undefined, b: 'é"\\\u0001' }).length);
  });
});
