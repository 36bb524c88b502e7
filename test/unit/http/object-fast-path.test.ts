import fc from 'fast-check';
import * as v from 'valibot';
import { recipientFastChecks, recipientSchema } from '../../../shared/broadcast/template-broadcast.schema';
import { ASK_VALIBOT, objectFastPath } from '../../../shared/http/object-fast-path';

/** The fast path's promise: undefined, or exactly valibot's output for a value valibot accepts. */
function expectValibotAnswer(schema: v.GenericSchema, fastPath: (value: unknown) => unknown, value: unknown): void {
  const fast = fastPath(value);
  if (fast === undefined) return;
  const result = v.safeParse(schema, value);
  expect(result.success).toBe(true);
  expect(fast).toStrictEqual(result.output);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(result.output));
}

describe('objectFastPath', () => {
  describe("a field added to the recipient schema (a header image) with the accept path's own fast checks", () => {
    const headerImage = v.object({ link: v.pipe(v.string(), v.url('must be a URL')), caption: v.optional(v.pipe(v.string(), v.trim())) });
    const extendedRecipient = v.object({ ...recipientSchema.entries, headerImage: v.optional(headerImage) });
    const passing = objectFastPath(extendedRecipient, recipientFastChecks);

    it("is validated and kept, in the schema's key order, transforms applied", () => {
      const recipient = {
        headerImage: { link: 'https://cdn.example.com/a.png', caption: '  Sale  ', tracking: 1 },
        toPhoneNumber: '7700900123',
        countryCode: '44',
      };
      expect(passing(recipient)).toStrictEqual(v.parse(extendedRecipient, recipient));
      expect(JSON.stringify(passing(recipient))).toBe(
        '{"countryCode":"44","toPhoneNumber":"7700900123","headerImage":{"link":"https://cdn.example.com/a.png","caption":"Sale"}}',
      );
    });

    it('is left to valibot when it breaks its rule, and absent when the request leaves it out', () => {
      expect(passing({ countryCode: '44', toPhoneNumber: '7700900123', headerImage: { link: 'not a url' } })).toBeUndefined();
      expect(passing({ countryCode: '44', toPhoneNumber: '7700900123' })).toStrictEqual({ countryCode: '44', toPhoneNumber: '7700900123' });
    });

    it('answers as valibot for generated recipients with and without it', () => {
      const link = fc.oneof(fc.constantFrom('https://cdn.example.com/a.png', 'http://x.y/z.jpg'), fc.string(), fc.anything({ maxDepth: 2 }));
      const recipient = fc.record(
        {
          countryCode: fc.oneof(fc.constantFrom('1', '44', '971'), fc.string()),
          toPhoneNumber: fc.oneof(fc.constantFrom('7700900123', '09876543210'), fc.string()),
          templateParams: fc.oneof(fc.array(fc.string(), { maxLength: 3 }), fc.anything({ maxDepth: 2 })),
          headerImage: fc.oneof(fc.record({ link, caption: fc.string() }, { requiredKeys: ['link'] }), fc.anything({ maxDepth: 2 })),
          other: fc.anything({ maxDepth: 2 }),
        },
        { requiredKeys: [] },
      );
      fc.assert(
        fc.property(recipient, (value) => expectValibotAnswer(extendedRecipient, passing, value)),
        { numRuns: 300 },
      );
    });
  });

  it("follows valibot's object for optional entries: left out, defaults, nullish, fallbacks and inherited keys", () => {
    const schema = v.object({
      name: v.pipe(v.string(), v.minLength(2)),
      tags: v.optional(v.array(v.string())),
      limit: v.optional(v.number(), 5),
      note: v.nullish(v.string()),
      mode: v.fallback(v.picklist(['a', 'b']), 'a'),
    });
    const passing = objectFastPath(schema, { name: (value) => (typeof value === 'string' && value.length >= 2 ? value : ASK_VALIBOT) });
    expect(passing({ name: 'ab', limit: 3, mode: 'b' })).toStrictEqual({ name: 'ab', limit: 3, mode: 'b' });
    expect(passing({ note: null, mode: 'b', name: 'ab', limit: 3, tags: ['x'] })).toStrictEqual({ name: 'ab', tags: ['x'], limit: 3, note: null, mode: 'b' });
    // A default or a fallback would fill an absent entry: valibot does that.
    expect(passing({ name: 'ab', mode: 'b' })).toBeUndefined();
    expect(passing({ name: 'ab', limit: 3 })).toBeUndefined();
    // Inherited keys count, as valibot's `key in input` counts them.
    expect(passing(Object.assign(Object.create({ limit: 3 }), { name: 'ab', mode: 'a' }))).toStrictEqual({ name: 'ab', limit: 3, mode: 'a' });
    fc.assert(
      fc.property(
        fc.record(
          {
            name: fc.oneof(fc.string(), fc.anything({ maxDepth: 2 })),
            tags: fc.anything({ maxDepth: 2 }),
            limit: fc.oneof(fc.integer(), fc.anything({ maxDepth: 2 })),
            note: fc.anything({ maxDepth: 2 }),
            mode: fc.constantFrom('a', 'b', 'c'),
          },
          { requiredKeys: [] },
        ),
        (value) => expectValibotAnswer(schema, passing, value),
      ),
      { numRuns: 500 },
    );
  });
});
