/** Small statistics shared by the benchmarks (bench/run.ts, bench/peers.ts). */

/** the median of a list (the mean of the middle two for an even length) */
export const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m]! : 0.5 * (s[m - 1]! + s[m]!); };

/** the least-squares slope of log y against log x: the exponent p of y ∝ xᵖ */
/** the p-quantile (0 ≤ p ≤ 1) of xs: the sorted value at ⌊p·n⌋ (NaN for none) */
export const quantile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
};

export function fitExponent(xs: readonly number[], ys: readonly number[]): number {
  const lx = xs.map(Math.log), ly = ys.map(Math.log);
  const mx = lx.reduce((a, b) => a + b) / lx.length, my = ly.reduce((a, b) => a + b) / ly.length;
  let num = 0, den = 0;
  for (let i = 0; i < lx.length; i++) { num += (lx[i]! - mx) * (ly[i]! - my); den += (lx[i]! - mx) ** 2; }
  return num / den;
}
