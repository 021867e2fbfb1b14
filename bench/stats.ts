/** Small statistics shared by the benchmarks (bench/run.ts, bench/peers.ts). */

/** the median of a list (the mean of the middle two for an even length) */
export const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m]! : 0.5 * (s[m - 1]! + s[m]!); };
