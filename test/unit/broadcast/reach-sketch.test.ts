import fc from 'fast-check';
import {
  cardinalityOf,
  deserializeSketch,
  emptySketch,
  REGISTER_COUNT,
  serializeSketch,
  sketchOfHashes,
  sketchOfNumbers,
  SPARSE_LIMIT,
  sparseDifference,
  unionOf,
  unionOfAll,
  withoutHashes,
} from '../../../shared/broadcast/reach-sketch';
import { MalformedReachSketchError } from '../../../shared/broadcast/errors';

const hashes = (maxLength: number) => fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength });
/** Distinct pseudo-random 32-bit values for large sets (property runs stay fast). */
function spread(count: number, seed: number): number[] {
  const values = new Set<number>();
  let state = seed >>> 0 || 1;
  while (values.size < count) {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    values.add(state);
  }
  return [...values];
}

describe('reach sketch: sparse (exact)', () => {
  test('the cardinality of a sketch is the number of distinct hashes', () => {
    fc.assert(fc.property(hashes(300), (values) => expect(cardinalityOf(sketchOfHashes(values))).toBe(new Set(values).size)));
  });

  test('a union of sparse sketches counts every distinct hash exactly once', () => {
    fc.assert(
      fc.property(fc.array(hashes(200), { maxLength: 25 }), (buckets) => {
        const union = unionOfAll(buckets.map(sketchOfHashes));
        expect(union.kind).toBe('sparse');
        expect(cardinalityOf(union)).toBe(new Set(buckets.flat()).size);
      }),
    );
  });

  test('union is commutative, associative and idempotent', () => {
    fc.assert(
      fc.property(hashes(100), hashes(100), hashes(100), (a, b, c) => {
        const [x, y, z] = [a, b, c].map(sketchOfHashes) as [
          ReturnType<typeof sketchOfHashes>,
          ReturnType<typeof sketchOfHashes>,
          ReturnType<typeof sketchOfHashes>,
        ];
        expect(serializeSketch(unionOf(x, y))).toEqual(serializeSketch(unionOf(y, x)));
        expect(serializeSketch(unionOf(unionOf(x, y), z))).toEqual(serializeSketch(unionOf(x, unionOf(y, z))));
        expect(serializeSketch(unionOf(x, x))).toEqual(serializeSketch(x));
      }),
    );
  });

  test('numbers hash the same every time, and the same number twice counts once', () => {
    expect(cardinalityOf(sketchOfNumbers(['919000000001', '919000000002', '919000000001']))).toBe(2);
    expect(serializeSketch(sketchOfNumbers(['14155550100']))).toEqual(serializeSketch(sketchOfNumbers(['14155550100'])));
  });

  test('2,000 distinct recipients in 24 buckets stay sparse and exact (the 2K tier is decided exactly)', () => {
    const numbers = Array.from({ length: 2000 }, (_, index) => `9198${String(index).padStart(8, '0')}`);
    const buckets = Array.from({ length: 24 }, (_, hour) => sketchOfNumbers(numbers.filter((_, index) => index % 24 === hour || index % 7 === hour)));
    const union = unionOfAll(buckets);
    expect(union.kind).toBe('sparse');
    expect(cardinalityOf(union)).toBe(2000);
  });
});

describe('reach sketch: what one accept added, and taking it out again', () => {
  test('the union minus the set before is what was added; removing it gives the set before back', () => {
    fc.assert(
      fc.property(hashes(300), hashes(300), (before, added) => {
        const prior = sketchOfHashes(before);
        const after = unionOf(prior, sketchOfHashes(added));
        const difference = sparseDifference(after, prior)!;
        expect(new Set(difference)).toEqual(new Set(added.filter((hash) => !before.includes(hash))));
        expect(serializeSketch(withoutHashes(after, difference)!)).toEqual(serializeSketch(prior));
      }),
    );
  });

  test('a HyperLogLog can say neither: undefined', () => {
    const dense = sketchOfHashes(spread(SPARSE_LIMIT + 1, 7));
    expect(dense.kind).toBe('dense');
    expect(sparseDifference(dense, emptySketch())).toBeUndefined();
    expect(sparseDifference(emptySketch(), dense)).toBeUndefined();
    expect(withoutHashes(dense, [1])).toBeUndefined();
  });
});

describe('reach sketch: dense (HyperLogLog, precision 14)', () => {
  test('more than SPARSE_LIMIT hashes turn dense', () => {
    expect(sketchOfHashes(spread(SPARSE_LIMIT, 7)).kind).toBe('sparse');
    expect(sketchOfHashes(spread(SPARSE_LIMIT + 1, 7)).kind).toBe('dense');
    const union = unionOf(sketchOfHashes(spread(SPARSE_LIMIT, 3)), sketchOfHashes(spread(SPARSE_LIMIT, 5)));
    expect(union.kind).toBe('dense');
  });

  test('the estimate is within 4 standard errors (4 × 0.81 %) across the tiers it decides', () => {
    fc.assert(
      fc.property(fc.integer({ min: SPARSE_LIMIT + 1, max: 150_000 }), fc.integer({ min: 1, max: 0x7fffffff }), (count, seed) => {
        const estimate = cardinalityOf(sketchOfHashes(spread(count, seed)));
        expect(Math.abs(estimate - count) / count).toBeLessThan(4 * 0.0081);
      }),
      { numRuns: 20 },
    );
  });

  test('a dense union estimates the union, overlaps counted once', () => {
    const all = spread(60_000, 11);
    const left = sketchOfHashes(all.slice(0, 40_000));
    const right = sketchOfHashes(all.slice(20_000));
    const estimate = cardinalityOf(unionOf(left, right));
    expect(Math.abs(estimate - 60_000) / 60_000).toBeLessThan(4 * 0.0081);
    // A sparse set merged into a dense one lands in the same registers as if it had been dense.
    const small = all.slice(0, 100);
    expect(serializeSketch(unionOf(left, sketchOfHashes(small)))).toEqual(serializeSketch(left));
  });
});

describe('reach sketch: serialized form', () => {
  test('round trip, sparse and dense', () => {
    fc.assert(
      fc.property(hashes(300), (values) => {
        const sketch = sketchOfHashes(values);
        expect(deserializeSketch(serializeSketch(sketch))).toEqual(sketch);
      }),
    );
    const dense = sketchOfHashes(spread(10_000, 9));
    const bytes = serializeSketch(dense);
    expect(bytes.length).toBe(1 + REGISTER_COUNT);
    expect(deserializeSketch(bytes)).toEqual(dense);
    expect(serializeSketch(emptySketch())).toEqual(Uint8Array.of(1));
  });

  test('a sparse sketch takes 4 bytes per recipient', () => {
    expect(serializeSketch(sketchOfHashes([1, 2, 3]))).toEqual(Uint8Array.of(1, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3));
  });

  test('anything else is refused', () => {
    for (const bytes of [
      new Uint8Array(0),
      Uint8Array.of(3),
      Uint8Array.of(1, 0, 0),
      Uint8Array.of(1, 0, 0, 0, 2, 0, 0, 0, 1),
      new Uint8Array(REGISTER_COUNT).fill(2),
    ]) {
      expect(() => deserializeSketch(bytes)).toThrow(MalformedReachSketchError);
    }
    const tooHigh = new Uint8Array(1 + REGISTER_COUNT);
    tooHigh[0] = 2;
    tooHigh[5] = 20;
    expect(() => deserializeSketch(tooHigh)).toThrow(MalformedReachSketchError);
  });
});
