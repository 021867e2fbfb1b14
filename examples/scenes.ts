/**
 * Programmatic scene builders shared by the tests and the benchmarks.
 */
import { ModelAssembler } from '../src/model/assembler.js';
import { AxialSpring } from '../src/forces/pathSpring.js';
import { LinearMaterial } from '../src/forces/materials.js';
import type { Model, RigidBody, Stabilization, QuatTuple } from '../src/model/model.js';
import { Joint, type JointType, type JointSpec } from '../src/constraints/joint.js';
import type { IntegratorName } from '../src/integrators/names.js';

export interface ClothOptions {
  /** particles per side (N×N) */
  n: number;
  /** side length (m), default 1 */
  size?: number;
  /** total mass (kg), default 1 */
  mass?: number;
  /** stiffness of the structural springs (N/m), default 5000; shear springs get half */
  stiffness?: number;
  /** spring damping (N·s/m), default 0 */
  damping?: number;
  integrator?: IntegratorName;
  step?: number;
}

/**
 * A square cloth of N×N particles in the horizontal plane z = 0, held at its two corners of
 * the edge y = 0 (non-dynamic particles), with structural springs along rows and columns and
 * shear springs along both diagonals, all at rest length. Gravity −9.81 along z.
 */
export function clothModel(o: ClothOptions): Model {
  const n = o.n, size = o.size ?? 1, dx = size / (n - 1), m = (o.mass ?? 1) / (n * n);
  const k = o.stiffness ?? 5000, d = o.damping ?? 0;
  const b = new ModelAssembler();
  b.settings.integrator = o.integrator ?? 'implicit-euler';
  b.settings.step = o.step ?? 0.01;
  const name = (i: number, j: number) => `p${i}_${j}`;
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    const pinned = j === 0 && (i === 0 || i === n - 1);
    b.addParticle({ name: name(i, j), mass: m, position: [i * dx, j * dx, 0], dynamic: !pinned });
  }
  const spring = (a: string, c: string, kk: number, rest: number) =>
    b.addForce(new AxialSpring(`${a}-${c}`, b.point(a), b.point(c), new LinearMaterial(kk, d), rest));
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    if (i + 1 < n) spring(name(i, j), name(i + 1, j), k, dx);
    if (j + 1 < n) spring(name(i, j), name(i, j + 1), k, dx);
    if (i + 1 < n && j + 1 < n) {
      spring(name(i, j), name(i + 1, j + 1), k / 2, dx * Math.SQRT2);
      spring(name(i + 1, j), name(i, j + 1), k / 2, dx * Math.SQRT2);
    }
  }
  return b.build();
}

/** options of chainOfBodies; the defaults are the chain100 bench scene */
export interface ChainOptions {
  integrator?: IntegratorName;
  step?: number;
  /** the joints between the links (default 'ball') */
  joint?: JointType;
  /** the joint to the world (default: `joint`) */
  pin?: JointType;
  /** the orientation [w, x, y, z] of every joint frame in world at load time (default identity) */
  frame?: QuatTuple;
  /** compliance, damping or stiffness of joint i ≥ 1 (between links i − 1 and i), if any */
  soft?: (i: number) => Omit<JointSpec, 'type'> | undefined;
  stabilization?: Stabilization;
  geometricStiffness?: boolean;
}

/**
 * The chain100 bench scene: n boxes 0.1 × 0.02 × 0.02 m of 0.1 kg ("link0" …), joined
 * end to end by ball joints, the first pinned to the world at the origin; released horizontal
 * along x under gravity 9.81 along −z; h = 1/240. The options make the other chains of thin rods
 * the tests and the robustness sweep use (other joint types, tilted frames, soft joints).
 */
export function chainOfBodies(n: number, o: ChainOptions = {}): Model {
  const b = new ModelAssembler();
  b.settings.geometricStiffness = o.geometricStiffness ?? false;
  b.settings.integrator = o.integrator ?? 'implicit-euler';
  b.settings.step = o.step ?? 1 / 240;
  if (o.stabilization) b.settings.stabilization = o.stabilization;
  const len = 0.1, w = 0.02, m = 0.1;
  const I = [(m / 12) * (w * w + w * w), (m / 12) * (len * len + w * w), (m / 12) * (len * len + w * w)] as const;
  for (let i = 0; i < n; i++) b.addBody({ name: `link${i}`, mass: m, inertia: [I[0], I[1], I[2], 0, 0, 0], position: [(i + 0.5) * len, 0, 0] });
  const q0 = b.initialQ(), frame = o.frame ?? [1, 0, 0, 0], type = o.joint ?? 'ball';
  const body = (i: number) => b.componentAt(b.componentIndex(`link${i}`)!) as RigidBody;
  b.addConstraint(Joint.atWorldFrame('pin', null, body(0), q0, [0, 0, 0], frame, { type: o.pin ?? type }));
  for (let i = 1; i < n; i++) b.addConstraint(Joint.atWorldFrame(`j${i}`, body(i - 1), body(i), q0, [i * len, 0, 0], frame, { type, ...o.soft?.(i) }));
  return b.build();
}
