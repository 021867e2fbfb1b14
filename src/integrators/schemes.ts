/**
 * The integrators of theory.md §5, written in velocity increments Δu = u⁺ − u on the solve
 * blocks. With f = f(q_k, u_k), K = ∂f/∂q, D = ∂f/∂u and M = M(q_k):
 *
 *   symplectic Euler  M Δu = h f                                         q⁺ = q ⊕ h u⁺
 *   implicit Euler    (M − hD − h²K) Δu = h (f + h K u)                  q⁺ = q ⊕ h u⁺
 *   trapezoidal       (M − (h/2)D − (h²/4)K) Δu = h (f + (h/2) K u)      q⁺ = q ⊕ (h/2)(u + u⁺)
 *   Bridson-Marino    (M − (h/2)D) Δu½ = (h/2) f                          q⁺ = q ⊕ h u½
 *                     (M − (h/2)D) Δu = (h/2) (f + f(q⁺, u_k))
 *
 * RK4, the accuracy reference, is in rk4.ts.
 *
 * Bilateral constraints (theory.md §6, §7) join every solve as the KKT rows
 * [[M̂, Gᵀ], [G, −R]] [Δu; μ] = [rhs; c − G u] (Workspace.constraints): the constraint impulse
 * λ̃ = −μ acts on the end-of-step velocity (for Bridson-Marino on the half-step velocity too),
 * and λ = λ̃/h is the average constraint force of the step (the post-step velocity
 * projection adds its own impulses/h to it, stabilize.ts).
 *
 * Rigid bodies: M(q) turns with the body (theory.md §4). For the second-order schemes K includes
 * the mass-variation term −∂(M a)/∂q at a = M⁻¹f (Workspace.addMassVariation), and
 * Bridson-Marino's second force is M(q_k) M(q⁺)⁻¹ f(q⁺, u_k); without them both drop to first
 * order on spinning bodies. Implicit Euler keeps M frozen at q_k and omits the term: measured on
 * free spinning bodies, that version always dissipates energy while the exact linearization
 * gains up to 74% in 20 s at large steps (docs/integrators.md). With M it freezes J in the
 * gyroscopic torque (K without the term of J turning; forces/inertial.ts, frozenInertia): with
 * that term the spin of thin links grew without bound at large steps.
 */
import type { Workspace } from '../step/workspace.js';
import type { State } from '../model/state.js';

/** scratch vectors of the schemes: s* in the solve layout, v* in the velocity layout */
export class SchemeScratch {
  readonly s1: Float64Array; readonly s2: Float64Array; readonly s3: Float64Array; readonly s4: Float64Array;
  readonly v1: Float64Array;
  readonly c1: Float64Array;   // (m) constraint right-hand side kept between two solves
  readonly c2: Float64Array;   // (m) compliant-row λ at the start of the step
  /** nKkt = n + m: velocity unknowns then constraint rows */
  constructor(nKkt: number, nu: number, m: number) {
    this.s1 = new Float64Array(nKkt); this.s2 = new Float64Array(nKkt);
    this.s3 = new Float64Array(nKkt); this.s4 = new Float64Array(nKkt);
    this.v1 = new Float64Array(nu);
    this.c1 = new Float64Array(m); this.c2 = new Float64Array(m);
  }
}

export type Scheme = (ws: Workspace, st: State, h: number, s: SchemeScratch) => void;

/** symplectic Euler (theory.md §5) */
export const symplecticEuler: Scheme = (ws, st, h, s) => {
  const { q, u } = st;
  // forces and mass at the start of the step
  ws.mass(q);
  ws.gather(s.s1, ws.fs.forces(q, u));
  ws.constraints(q, u, h, 'velocity');
  // [[M, Gᵀ], [G, −R]] [Δu; μ] = [h f; c − G u]
  ws.factor(0, 0);
  const n = ws.model.nSolve;
  for (let i = 0; i < n; i++) s.s1[i] = h * s.s1[i]!;
  ws.constraintRhs(s.s1, 'velocity');
  ws.velocitySolve(s.s1, s.s2, u);
  ws.storeLambda(s.s2, 1 / h);
  // u⁺ = u + Δu, then q⁺ = q ⊕ h u⁺
  ws.scatterAdd(u, s.s2, 1);
  ws.advance(q, u, h);
};

/** the linearly implicit steps of theory.md §5: implicit Euler (θ = 1), trapezoidal rule (θ = ½) */
function linearlyImplicit(theta: number): Scheme {
  return (ws, st, h, s) => {
    const { q, u } = st;
    // forces, Jacobians and mass at the start of the step
    ws.mass(q);
    ws.gather(s.s1, ws.fs.forces(q, u));
    ws.fs.jacobians(q, u, theta === 1);
    const geometric = ws.addGeometricStiffness(q, u);
    // second order only: K −= ∂(M a)/∂q at a = M⁻¹ f (the mass variation)
    if (theta !== 1) { ws.massInverse(s.s2, s.s1); ws.addMassVariation(s.s2); }
    if (theta === 1) ws.constraints(q, u, h, 'velocity');
    else ws.constraintsAtMidpoint(q, u, h, 'second');
    // the geometric stiffness (an indefinite term: compression, levers) can make the step matrix
    // indefinite at large steps; that step is then taken without it (counted, warned once)
    if (!geometric) ws.factor(theta * h, theta * theta * h * h);
    else if (!ws.tryFactor(theta * h, theta * theta * h * h)) {
      ws.noteGeometricFallback();
      ws.fs.jacobians(q, u, theta === 1);
      if (theta !== 1) ws.addMassVariation(s.s2);
      ws.factor(theta * h, theta * theta * h * h);
    }
    // rhs = [h (f + θ h K u); c − G u]
    ws.gather(s.s3, u);
    ws.mulK(s.s4, s.s3);
    const n = ws.model.nSolve;
    for (let i = 0; i < n; i++) s.s1[i] = h * (s.s1[i]! + theta * h * s.s4[i]!);
    ws.constraintRhs(s.s1, 'velocity');
    ws.velocitySolve(s.s1, s.s2, u);
    ws.storeLambda(s.s2, 1 / h);
    // u⁺ = u + Δu; q⁺ = q ⊕ h((1−θ) u + θ u⁺)
    if (theta === 1) {
      ws.scatterAdd(u, s.s2, 1);
      ws.advance(q, u, h);
    } else {
      s.v1.set(u);
      ws.scatterAdd(s.v1, s.s2, theta);
      ws.scatterAdd(u, s.s2, 1);
      ws.advance(q, s.v1, h);
    }
  };
}

export const implicitEuler: Scheme = linearlyImplicit(1);
export const trapezoidal: Scheme = linearlyImplicit(0.5);

/**
 * Bridson-Marino (theory.md §5): two solves with M − (h/2)D; the position Jacobian is not used.
 * Hard constraint rows act on both velocities; compliant rows act as their spring forces, explicit
 * in position like every other force of this scheme.
 */
export const bridsonMarino: Scheme = (ws, st, h, s) => {
  const { q, u } = st;
  const n = ws.model.nSolve, m = ws.model.nRows, cs = ws.cs;
  // forces (with compliant constraint forces), velocity Jacobian and mass at the start of the step
  ws.mass(q);
  ws.gather(s.s1, ws.fs.forces(q, u));
  ws.fs.jacobians(q, u);
  ws.compliantForces(q, u, s.s1);
  s.c2.set(cs.lambdaForce);
  ws.constraintsAtMidpoint(q, u, h, 'half');
  ws.factor(0.5 * h, 0);
  // half-step velocity, constrained: (M − (h/2)D) Δu½ = (h/2) f_k
  for (let i = 0; i < n; i++) s.s3[i] = 0.5 * h * s.s1[i]!;
  ws.constraintRhs(s.s3, 'velocity');
  for (let i = 0; i < m; i++) s.c1[i] = s.s3[n + i]!;
  ws.velocitySolve(s.s3, s.s2, u);
  // q⁺ = q ⊕ h u½
  s.v1.set(u);
  ws.scatterAdd(s.v1, s.s2, 1);
  ws.advance(q, s.v1, h);
  // f′ = M(q_k) M(q⁺)⁻¹ f(q⁺, u_k) (with the compliant forces at q⁺); (M − (h/2)D) Δu = (h/2)(f_k + f′)
  ws.gather(s.s4, ws.fs.forces(q, u));
  ws.compliantForces(q, u, s.s4);
  ws.massInverse(s.s4, s.s4);
  ws.mulM(s.s2, s.s4);
  s.s4.set(s.s2);
  // the hard rows again on u⁺, same rows as the half step
  for (let i = 0; i < n; i++) s.s3[i] = 0.5 * h * (s.s1[i]! + s.s4[i]!);
  for (let i = 0; i < m; i++) s.s3[n + i] = s.c1[i]!;
  ws.velocitySolve(s.s3, s.s2, u);
  ws.storeLambda(s.s2, 1 / h);
  // compliant rows report the mean of their start and end forces
  for (let i = 0; i < m; i++) if (!cs.hard[i]) cs.lambda[i] = 0.5 * (s.c2[i]! + cs.lambdaForce[i]!);
  ws.scatterAdd(u, s.s2, 1);
};
