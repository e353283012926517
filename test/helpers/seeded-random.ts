/**
 * A small seeded random generator (mulberry32) for tests that draw many random cases: the same
 * seed gives the same sequence, so a failing case can be replayed from the seed it names.
 */

/** A generator of numbers uniform in [0, 1), fully determined by `seed`. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
