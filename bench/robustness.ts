/**
 * Robustness sweep (`npm run build && node dist/bench/robustness.js`; not part of the tests, not
 * timed): every joint type × integrator × stabilization × step on small chains of thin rods, and
 * ropes of particles on distance constraints (hard, or every third row soft), reporting per run
 * the worst end-of-step joint separation, the energy change (J), and the flags of trouble: P
 * (projections above tolerance), I (inertia warnings), ERR@step (a DivergenceError). Its findings
 * are in docs/constraints.md (robustness) and docs/integrators.md (fast spin); re-run it after
 * changes to the integrators or the constraint rows.
 */
import { ModelAssembler } from '../src/model/assembler.js';
import { Simulation } from '../src/simulation.js';
import type { JointType } from '../src/constraints/joint.js';
import { chainOfBodies } from '../examples/scenes.js';
import { DistanceConstraint } from '../src/constraints/distance.js';
import { DivergenceError } from '../src/model/errors.js';
import type { IntegratorName } from '../src/integrators/names.js';
import type { Stabilization } from '../src/model/model.js';

const INTEGRATORS: IntegratorName[] = ['implicit-euler', 'trapezoidal', 'symplectic-euler', 'bridson-marino', 'rk4'];
const METHODS: Stabilization['method'][] = ['projection', 'baumgarte', 'spook'];
const JOINTS: JointType[] = ['ball', 'hinge', 'slider', 'cylindrical', 'universal', 'gimbal', 'planar', 'point-on-plane', 'point-on-line', 'weld'];

/** one run: 'worst separation/energy change' and flags, or ERR@step */
function run(sim: Simulation, steps: number): string {
  const E0 = sim.energy().total;
  try {
    sim.steps(steps);
  } catch (e) {
    if (e instanceof DivergenceError) return `ERR@${e.step}`;
    throw e;
  }
  const d = sim.diagnostics;
  const flags = (d.projectionUnconverged ? `P${d.projectionUnconverged}` : '') + (d.inertiaWarnings ? `I${d.inertiaWarnings}` : '');
  const dE = sim.energy().total - E0;
  return `${d.worstViolation.value.toExponential(0)}/${Math.abs(dE) < 1e3 ? dE.toFixed(2) : dE.toExponential(1)}${flags ? '/' + flags : ''}`;
}

/** 12 thin rods (0.1 × 0.02 × 0.02 m, 0.1 kg) on joints of one type, frames tilted, released from rest */
function rods(type: JointType, integrator: IntegratorName, method: Stabilization['method'], h: number): Simulation {
  const frame: [number, number, number, number] = [Math.cos(0.3), Math.sin(0.3) * 0.6, Math.sin(0.3) * 0.8, 0];
  // the pin to the world locks all translations (a sliding first joint would let the chain fall away)
  const pin: JointType = ['slider', 'planar', 'point-on-plane', 'point-on-line'].includes(type) ? 'ball' : type;
  return new Simulation(chainOfBodies(12, { joint: type, pin, frame, integrator, step: h, stabilization: { method } }));
}

/** 30 particles of 10 g on distance constraints 5 cm apart, the first pinned; every third row soft (500 N/m, ζ = 0.2) if asked */
function rope(soft: boolean, integrator: IntegratorName, method: Stabilization['method'], h: number): Simulation {
  const b = new ModelAssembler();
  b.settings.integrator = integrator;
  b.settings.step = h;
  b.settings.stabilization = { method };
  const n = 30;
  for (let i = 0; i < n; i++) b.addParticle({ name: `p${i}`, mass: 0.01, position: [0.05 * (i + 1), 0, 0.001 * Math.sin(i)] });
  const q0 = b.initialQ();
  b.addConstraint(new DistanceConstraint('c0', b.worldPoint([0, 0, 0]), b.point('p0'), q0));
  for (let i = 1; i < n; i++) b.addConstraint(new DistanceConstraint(`c${i}`, b.point(`p${i - 1}`), b.point(`p${i}`), q0, soft && i % 3 === 0 ? { stiffness: 500, dampingRatio: 0.2 } : {}));
  return new Simulation(b.build());
}

const log = (s: string) => process.stdout.write(s + '\n');
for (const hinv of [240, 60, 30]) {
  for (const integrator of INTEGRATORS) {
    for (const method of METHODS) {
      const cells = JOINTS.map((t) => `${t} ${run(rods(t, integrator, method, 1 / hinv), 2 * hinv)}`);
      cells.push(`rope ${run(rope(false, integrator, method, 1 / hinv), 2 * hinv)}`, `soft rope ${run(rope(true, integrator, method, 1 / hinv), 2 * hinv)}`);
      log(`h = 1/${hinv} ${integrator} ${method}: ${cells.join(' | ')}`);
    }
  }
}
