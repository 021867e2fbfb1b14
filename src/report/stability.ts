/**
 * Two guards against a silent blow-up (theory.md §5):
 * - before an explicit integrator runs, the model's highest natural frequency ω_max, estimated
 *   by power iteration on M⁻¹K at the initial state, against the scheme's stability limit
 *   h·ω_max < c (c = 2 for symplectic Euler, 2√2 for RK4 on an undamped oscillator);
 * - during a run, the energy balance: E − E₀ − W_ext, where W_ext is the work of the external
 *   loads, cannot grow in a passive model (springs and gravity store energy, damping and the
 *   constraint stabilization remove it), so growth beyond the model's energy scale is an
 *   instability.
 */
import type { Model } from '../model/model.js';
import type { State } from '../model/state.js';
import type { Workspace } from '../step/workspace.js';
import type { IntegratorName } from '../integrators/names.js';

/**
 * h·ω_max past which an explicit scheme, or Bridson-Marino's explicit elastic half, is unstable on
 * an undamped oscillator (theory.md §5)
 */
export const EXPLICIT_LIMITS: Readonly<Partial<Record<IntegratorName, number>>> = {
  'symplectic-euler': 2, 'bridson-marino': 2, rk4: 2 * Math.SQRT2,
};

/** power iterations of the frequency estimate: enough for a warning, cheap next to one step */
const POWER_ITERATIONS = 60;

/** steps between two energy checks after the first ones (an energy evaluation costs about one force pass) */
export const ENERGY_CHECK_EVERY = 16;

/**
 * excess energy, in units of the model's energy scale, past which a run has blown up: a failed
 * step (DivergenceError), not a warning. Between 1 and this, an `instability` warning.
 */
export const BLOWUP = 100;

/** the model's fastest rate, and the component that moves most in its mode */
export interface Frequency {
  /**
   * rad/s or 1/s: ω_max = √|λ_max(M⁻¹K)| of the stiffness, or |λ_max(M⁻¹D)| of the damping,
   * whichever limits the step more (an estimate from below: power iteration approaches the
   * largest eigenvalue from below)
   */
  omega: number;
  /** 'stiffness' or 'damping' */
  source: 'stiffness' | 'damping';
  /** the component, as `particle "p1"` or `body "arm"` */
  component: string;
}

/**
 * The fastest rate of the model at (q, u): the largest |λ| of M⁻¹K (its square root, a
 * frequency) and of M⁻¹D (a decay rate), by power iteration from a fixed start (deterministic);
 * null without either. The explicit schemes' limits are h·ω < c for both on the real and the
 * imaginary axis alike (c = 2 for symplectic Euler on a pure oscillation or a pure decay; RK4's
 * 2√2 and 2.79). Constraints only remove modes, so the constrained system is no faster.
 */
export function highestFrequency(model: Model, ws: Workspace, q: Float64Array, u: Float64Array): Frequency | null {
  if (model.nSolve === 0) return null;
  ws.fs.jacobians(q, u);
  const k = dominant(model, ws, (y, x) => ws.mulK(y, x)), d = dominant(model, ws, (y, x) => ws.mulD(y, x));
  const wk = Math.sqrt(k.lambda), wd = d.lambda;
  if (!(wk > 0) && !(wd > 0)) return null;
  return wd > wk ? { omega: wd, source: 'damping', component: d.component } : { omega: wk, source: 'stiffness', component: k.component };
}

/** the largest |λ| of M⁻¹A by power iteration, A given as a product, and its mode's largest component */
function dominant(model: Model, ws: Workspace, mul: (y: Float64Array, x: Float64Array) => void): { lambda: number; component: string } {
  const n = model.nSolve, x = new Float64Array(model.nKkt), y = new Float64Array(model.nKkt);
  for (let i = 0; i < n; i++) x[i] = 1 + ((i * 7919) % 13) / 13;
  let lambda = 0;
  for (let it = 0; it < POWER_ITERATIONS; it++) {
    const nx = norm(x, n);
    for (let i = 0; i < n; i++) x[i] = x[i]! / nx;
    mul(y, x);
    ws.massInverse(y, y);
    // a complex pair makes the ratio oscillate: keep the largest of the last iterations
    const ratio = norm(y, n);
    if (it >= POWER_ITERATIONS - 10) lambda = Math.max(lambda, ratio);
    x.set(y.subarray(0, n));
  }
  return { lambda: Number.isFinite(lambda) ? lambda : 0, component: largestBlock(model, x) };
}

function norm(v: Float64Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += v[i]! * v[i]!;
  return Math.sqrt(s) || 1;
}

/** the component whose block of the mode x is largest */
function largestBlock(model: Model, x: Float64Array): string {
  let best = 0, at = 0;
  for (let b = 0; b < model.blockComponent.length; b++) {
    let s = 0;
    for (let k = model.blockStart[b]!; k < model.blockStart[b + 1]!; k++) s += x[k]! * x[k]!;
    if (s > best) { best = s; at = b; }
  }
  const c = model.components[model.blockComponent[at]!]!;
  return `${c.kind} "${c.name}"`;
}

/** the energy balance of a run that has gained energy (EnergyWatch.afterStep) */
export interface EnergyExcess {
  /** E − E₀ − W_ext, J */
  excess: number;
  /** E now, J */
  energy: number;
  /** E at the start (or the last restore), J */
  e0: number;
  /** W_ext, the work of the external loads since then, J */
  work: number;
  /** the excess in units of the model's energy scale */
  times: number;
}

/** the component with the largest kinetic energy, as `body "arm"` (blamed for a blow-up) */
export function fastestComponent(model: Model, u: Float64Array): string {
  let best = -1, at = model.components[0]!;
  for (const c of model.components) {
    if (!c.dynamic) continue;
    // m|v|², plus for a body (tr J)|ω|², at least its rotational 2T: rank, not measure
    let e = 0;
    for (let k = 0; k < 3; k++) e += c.mass * u[c.uOffset + k]! * u[c.uOffset + k]!;
    if (c.kind === 'body') {
      const J = c.inertia, tr = J[0]! + J[4]! + J[8]!;
      for (let k = 3; k < 6; k++) e += tr * u[c.uOffset + k]! * u[c.uOffset + k]!;
    }
    if (e > best) { best = e; at = c; }
  }
  return `${at.kind} "${at.name}"`;
}

/**
 * The energy balance of a run: E − E₀ − W_ext against the model's energy scale S = K₀ + |V₀| +
 * 2V_c + Σ m|g|(extent + 1 m) + max |W_ext| (the energy it starts with, what gravity can release
 * over its size, and what the loads supplied). E counts the forces' potential but not the
 * compliant rows' V_c = Σ g²/(2α), which is ill-conditioned for nearly rigid rows (α → 0, g at
 * rounding level); what they hold at the start enters S twice, as the energy they can release.
 * A passive model's balance stays at or below zero up to the integrator's error, which is small
 * next to S; an unstable step grows it past S within a few steps of its onset.
 */
export class EnergyWatch {
  private e0 = 0;
  private scale0 = 0;
  private work = 0;
  private maxWork = 0;
  private sinceCheck = 0;
  /**
   * the smallest scale: 1 µJ per kg of dynamic mass (and 1 µJ without), so that a model at rest
   * with no energy at all still has one, and rounding-level gains never count
   */
  private readonly floor: number;

  constructor(private readonly model: Model, private readonly ws: Workspace, private readonly state: State) {
    let mass = 0;
    for (const c of model.components) if (c.dynamic) mass += c.mass;
    this.floor = 1e-6 * Math.max(1, mass);
  }

  /** the balance starts over at the current state (a new simulation, or a restored checkpoint) */
  reset(): void {
    const { q, u } = this.state;
    const k = this.ws.kineticEnergy(q, u), v = this.ws.fs.potentialEnergy(q, u), vc = this.ws.potentialEnergy(q, u) - v;
    this.e0 = k + v;
    this.scale0 = k + Math.abs(v) + 2 * vc + this.gravityScale();
    this.work = 0;
    this.maxWork = 0;
    this.sinceCheck = 0;
  }

  /**
   * After a step of size h, on the end-of-step state: adds the loads' work h·f_extᵀu; at each
   * of the first ENERGY_CHECK_EVERY steps, then every ENERGY_CHECK_EVERY steps, returns the
   * balance when the excess E − E₀ − W_ext passes the scale (else null; `times` is the excess in
   * units of the scale)
   */
  afterStep(h: number, step: number): EnergyExcess | null {
    const ext = this.ws.fs.external, u = this.state.u;
    let p = 0;
    for (let i = 0; i < ext.length; i++) p += ext[i]! * u[i]!;
    this.work += h * p;
    if (Math.abs(this.work) > this.maxWork) this.maxWork = Math.abs(this.work);
    if (++this.sinceCheck < ENERGY_CHECK_EVERY && step > ENERGY_CHECK_EVERY) return null;
    this.sinceCheck = 0;
    const { q } = this.state;
    const energy = this.ws.kineticEnergy(q, u) + this.ws.fs.potentialEnergy(q, u);
    const excess = energy - this.e0 - this.work, scale = Math.max(this.scale0 + this.maxWork, this.floor);
    // a non-finite energy is the divergence check's to report
    return excess > scale ? { excess, energy, e0: this.e0, work: this.work, times: excess / scale } : null;
  }

  /** Σ m|g|(extent + 1 m): the energy gravity can release over the model's initial extent */
  private gravityScale(): number {
    const g = Math.hypot(...this.model.settings.gravity), q = this.model.initialQ;
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    let mass = 0;
    for (const c of this.model.components) {
      if (c.dynamic) mass += c.mass;
      for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k]!, q[c.qOffset + k]!); hi[k] = Math.max(hi[k]!, q[c.qOffset + k]!); }
    }
    const extent = mass > 0 ? Math.hypot(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!) : 0;
    return mass * g * (extent + 1);
  }
}
