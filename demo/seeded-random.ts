import { createHash } from 'node:crypto';

/** A deterministic pseudo-random source: every call returns a float in [0, 1). */
export type Random = () => number;

/**
 * Seeded PRNG (mulberry32): small, fast and good enough for shuffling demo data. The same seed
 * always yields the same sequence, so a demo run can be reproduced with `--seed`.
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An integer in [min, max] (both inclusive) drawn from `random`. */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** A new array with the items of `items` in a random order (Fisher–Yates). */
export function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * A float in [0, 1) that depends only on the seed and the label — not on how many draws came
 * before. Used for decisions whose order depends on concurrent scheduling (e.g. which request a
 * simulated server delays), so a run stays reproducible whatever the interleaving.
 */
export function hashedUnit(seed: number, label: string): number {
  const digest = createHash('sha256').update(`${seed}\u0000${label}`).digest();
  return digest.readUInt32BE(0) / 4_294_967_296;
}

/** A random lowercase hex string of `bytes` bytes, drawn from `random` (for demo ids). */
export function randomHex(random: Random, bytes: number): string {
  let out = '';
  for (let i = 0; i < bytes; i++) out += randomInt(random, 0, 255).toString(16).padStart(2, '0');
  return out;
}
