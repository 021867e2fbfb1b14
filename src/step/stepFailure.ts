/**
 * Why a step failed, named after the component, force row or constraint at fault: a zero pivot,
 * a symmetric step matrix that is not quasi-definite, or a solve that went non-finite. Each
 * throws the NonFiniteError that Simulation.step turns into a DivergenceError with the step.
 */
import { NonFiniteError } from '../model/errors.js';
import type { Workspace } from './workspace.js';

/** `body "arm"`, `particle "p"` or `constraint "knee"`: the owner of KKT index k */
export function ownerOf(ws: Workspace, k: number): string {
  const m = ws.model;
  if (k >= m.nSolve) return `constraint "${m.constraints[ws.cs.rowOwner(k - m.nSolve).constraint]!.name}"`;
  let b = 0;
  while (b + 1 < m.blockComponent.length && m.blockStart[b + 1]! <= k) b++;
  const c = m.components[m.blockComponent[b]!]!;
  return `${c.kind} "${c.name}"`;
}

/** throws for the component (or constraint) of KKT index `at`, whose pivot was zero or non-finite */
export function pivot(ws: Workspace, at: number): never {
  if (at >= ws.model.nSolve) throw new NonFiniteError(ownerOf(ws, at), 'its rows could not be factored (non-finite or inconsistent)');
  const finite = ws.stepMatrix().every(Number.isFinite);
  throw new NonFiniteError(ownerOf(ws, at), finite ? 'the step matrix is singular at this component' : 'its stiffness or damping became non-finite');
}

/** throws for the component or constraint of KKT index `at`, whose pivot has the wrong sign */
export function inertia(ws: Workspace, at: number, msg: string): never {
  if (at >= ws.model.nSolve) {
    throw new NonFiniteError(ownerOf(ws, at), `the step matrix is not quasi-definite at its rows (${msg}): the constraints are inconsistent or the step is too large`);
  }
  throw new NonFiniteError(ownerOf(ws, at), `the step matrix is not positive definite at this component (${msg}): its stiffness is too large for the step (a smaller step helps)`);
}

/**
 * throws for the first component or constraint whose force, row or step-matrix column is not
 * finite; when every input is finite (the solve overflowed), for the one whose values are
 * largest, which went out of range first
 */
export function nonFinite(ws: Workspace, rhs: Float64Array): never {
  const L = ws.fs.layout, A = ws.stepMatrix(), n = ws.model.nSolve;
  let big = 0, at = 0;
  for (let k = 0; k < L.n; k++) {
    const r = rhs[k]!;
    if (!Number.isFinite(r)) throw new NonFiniteError(ownerOf(ws, k), k < n ? 'its force became non-finite' : 'its constraint rows became non-finite');
    if (Math.abs(r) > big) { big = Math.abs(r); at = k; }
    for (let p = L.colPtr[k]!; p < L.colPtr[k + 1]!; p++) {
      const a = A[p]!;
      if (!Number.isFinite(a)) {
        throw new NonFiniteError(ownerOf(ws, k), k < n ? 'its stiffness or damping became non-finite' : 'its Jacobian or compliance became non-finite');
      }
      if (Math.abs(a) > big) { big = Math.abs(a); at = k; }
    }
  }
  throw new NonFiniteError(ownerOf(ws, at), `its forces or stiffness reach ${big.toExponential(2)}, the largest in the step matrix: the linear solve overflowed to a non-finite result`);
}
