/**
 * Eigenvalues of a symmetric 3×3 matrix (row-major), by cyclic Jacobi rotations (test oracle).
 * Not src/math/mat3.ts symmetricEigenvalues3: its trigonometric solution of the cubic loses the
 * small eigenvalues of rank-deficient matrices to cancellation (an error of 1.1e-8 where 4e-12
 * was the test's bound for the lever curvature's positive part), and Jacobi does not.
 */
export function eigenSymmetric3(P: ArrayLike<number>): number[] {
  const A = [[P[0]!, P[1]!, P[2]!], [P[3]!, P[4]!, P[5]!], [P[6]!, P[7]!, P[8]!]];
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = A[0]![1]! ** 2 + A[0]![2]! ** 2 + A[1]![2]! ** 2;
    if (off < 1e-30 * (A[0]![0]! ** 2 + A[1]![1]! ** 2 + A[2]![2]! ** 2) || off === 0) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]] as const) {
      const apq = A[p]![q]!;
      if (apq === 0) continue;
      // the rotation that zeroes A[p][q]
      const theta = (A[q]![q]! - A[p]![p]!) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = A[k]![p]!, akq = A[k]![q]!;
        A[k]![p] = c * akp - s * akq; A[k]![q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = A[p]![k]!, aqk = A[q]![k]!;
        A[p]![k] = c * apk - s * aqk; A[q]![k] = s * apk + c * aqk;
      }
    }
  }
  return [A[0]![0]!, A[1]![1]!, A[2]![2]!];
}
