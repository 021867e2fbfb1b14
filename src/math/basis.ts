/**
 * Orthonormal tangent basis of a unit normal, after Duff, Burgess, Christensen, Hery, Kensler,
 * Liani and Villemin, "Building an orthonormal basis, revisited" (JCGT 6(1), 2017, listing 3).
 *
 * With s = sign(n_z) (+1 for n_z = ±0), a = −1/(s + n_z) and b = n_x n_y a:
 *   t₁ = (1 + s n_x² a, s b, −s n_x),   t₂ = (b, s + n_y² a, −n_y).
 * (t₁, t₂, n) is orthonormal and right-handed (t₁ × t₂ = n) for every unit n; s + n_z never
 * vanishes, so there is no division by a small number. The only branch is the sign: the frame
 * moves continuously with n everywhere except across n_z = 0 (design notes, "Contact": friction
 * directions follow the normal so that warm-started impulses stay meaningful).
 */

/**
 * Writes the tangents of the unit normal n[offset … offset+2] into t1 and t2 at the same offset.
 * @param t1 first tangent (out)
 * @param t2 second tangent (out), t1 × t2 = n
 * @param n unit normal
 * @param offset index of the 3-vector in all three arrays
 */
export function orthonormalBasis(t1: Float64Array, t2: Float64Array, n: ArrayLike<number>, offset = 0): void {
  const nx = n[offset]!, ny = n[offset + 1]!, nz = n[offset + 2]!;
  const s = nz >= 0 ? 1 : -1;
  const a = -1 / (s + nz);
  const b = nx * ny * a;
  t1[offset] = 1 + s * nx * nx * a; t1[offset + 1] = s * b; t1[offset + 2] = -s * nx;
  t2[offset] = b; t2[offset + 1] = s + ny * ny * a; t2[offset + 2] = -ny;
}
