/**
 * The scale simulation's randomness: one seeded generator per stream, so a seed gives the same
 * figures on every run. mulberry32 is twelve lines, fast (one 32-bit state, a few integer ops per
 * draw) and good enough for load shapes; a library would add a dependency for no gain, and
 * `Math.random` cannot be seeded.
 */

/** A uniform draw in [0, 1). */
export type Random = () => number;

/**
 * mulberry32: a 32-bit seeded PRNG.
 *
 * @example
 * const random = mulberry32(42);
 * random(); // the same sequence for seed 42, always
 */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A generator per named stream, derived from one seed: adding draws to one model (Meta's
 * latency) leaves the others' sequences (arrivals) unchanged, so figures move only where the
 * change is.
 *
 * @example
 * const streams = randomStreams(7);
 * const latency = streams('meta-latency');
 */
export function randomStreams(seed: number): (name: string) => Random {
  return (name) => {
    let hash = seed >>> 0;
    for (let index = 0; index < name.length; index += 1) hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193) >>> 0;
    return mulberry32(hash);
  };
}

/**
 * A log-normal draw (median `medianMs`, shape `sigma`): latencies are positive with a right tail.
 *
 * @example
 * logNormal(random, 250, 0.35); // around 250, rarely above 600
 */
export function logNormal(random: Random, median: number, sigma: number): number {
  // Box-Muller; 1 - random() keeps the logarithm finite.
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return median * Math.exp(sigma * normal);
}

/**
 * An exponential inter-arrival time for `perSecond` arrivals a second (a Poisson process), in ms.
 *
 * @example
 * exponentialGapMs(random, 600); // ~1.67 ms on average
 */
export function exponentialGapMs(random: Random, perSecond: number): number {
  return (-Math.log(1 - random()) * 1000) / perSecond;
}
