/**
 * The size of a parsed JSON value's text (`JSON.stringify(value)`) under an additive measure,
 * computed from its parts without writing the text: every string, number and key is measured once,
 * every object and array once (kept by identity), so measuring a part built from an already
 * measured batch costs only its new containers. The batch splitter sizes its parts so
 * (webhook-batch-split.ts): measuring candidates by re-serializing them cost several passes over a
 * 4 MiB body. Values come from JSON.parse (strings, numbers, booleans, null, arrays, plain objects)
 * or are built from them; an `undefined` member is left out, as JSON.stringify leaves it out.
 */

/** A text's size; must add up over concatenation (size(a + b) = size(a) + size(b)). */
export type TextSize = (text: string) => number;

/**
 * A sizer bound to one measure, with its own cache (objects must not change once measured).
 *
 * @example
 * const sizeOf = jsonTextSizer((text) => Buffer.byteLength(text));
 * sizeOf({ a: [1, 'é'] }) === Buffer.byteLength(JSON.stringify({ a: [1, 'é'] })); // true
 */
export function jsonTextSizer(size: TextSize): (value: unknown) => number {
  const cache = new WeakMap<object, number>();
  const comma = size(',');
  const colon = size(':');
  const brackets = size('[]');
  const braces = size('{}');
  const sizeOf = (value: unknown): number => {
    if (typeof value !== 'object' || value === null) return size(JSON.stringify(value) ?? 'null');
    const known = cache.get(value);
    if (known !== undefined) return known;
    let total: number;
    if (Array.isArray(value)) {
      total = brackets + (value.length > 0 ? (value.length - 1) * comma : 0);
      for (const element of value) total += element === undefined ? size('null') : sizeOf(element);
    } else {
      total = braces;
      let members = 0;
      for (const [key, member] of Object.entries(value)) {
        if (member === undefined) continue;
        total += size(JSON.stringify(key)) + colon + sizeOf(member) + (members > 0 ? comma : 0);
        members += 1;
      }
    }
    cache.set(value, total);
    return total;
  };
  return sizeOf;
}
