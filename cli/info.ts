/**
 * `vinculum info`: a model's degrees of freedom, components, markers, forces, joints and settings,
 * with the defaults filled in.
 */
import type { LoadedModel } from '../src/io/loader.js';
import { resolveStabilization, type Stabilization } from '../src/model/model.js';
import { fmt } from './common.js';
import { defaultName } from '../src/io/messages.js';

/** simulated time of `vinculum run` when neither --duration nor the model gives one (s) */
export const DEFAULT_DURATION = 5;

/** the description of the model loaded from `file` */
export function info(file: string, loaded: LoadedModel): string {
  const { model, file: doc } = loaded;
  const names = (xs: string[]) => (xs.length ? `: ${xs.join(', ')}` : '');
  const particles = model.particles.map((p) => (p.dynamic ? p.name : `${p.name} (fixed)`));
  const bodies = model.bodies.map((b) => (b.dynamic ? b.name : `${b.name} (fixed)`));
  const markers = model.markers.map((m) => `${m.name} (on ${model.components[m.body]!.name})`);
  const point = (r: string | [string, number[]]) => (typeof r === 'string' ? r : `world [${r[1].join(', ')}]`);
  const forces = doc.forces.map((f, i) => {
    const name = f.name ?? defaultName(f.type, i);
    const ends = f.type === 'frame-spring' ? `${f.bodyA} – ${f.bodyB}` : f.points.map(point).join(' – ');
    return `  ${f.type} "${name}": ${ends}`;
  });
  const joints = doc.joints.map((j, i) => {
    const name = j.name ?? defaultName(j.type, i);
    const ends = j.type === 'distance' ? j.points.map(point).join(' – ') : `${j.bodyA} – ${j.bodyB}`;
    const rows = model.constraints[i]!.rows;
    return `  ${j.type} "${name}": ${ends}, ${rows} row${rows === 1 ? '' : 's'}`;
  });
  const duration = loaded.duration !== undefined
    ? `${fmt(loaded.duration)} s` : `${DEFAULT_DURATION} s (default)`;
  return [
    `model           ${file}`,
    `DOF             ${model.dof}`,
    `particles       ${model.particles.length}${names(particles)}`,
    `bodies          ${model.bodies.length}${names(bodies)}`,
    `markers         ${model.markers.length}${names(markers)}`,
    `forces          ${doc.forces.length}`,
    ...forces,
    `joints          ${doc.joints.length}${doc.joints.length ? ` (${model.nRows} constraint rows)` : ''}`,
    ...joints,
    `stabilization   ${stabilizationText(model.settings.stabilization)}`,
    `integrator      ${model.settings.integrator}`,
    `step            ${fmt(model.settings.step)} s`,
    `duration        ${duration}`,
    `gravity         [${model.settings.gravity.map(fmt).join(', ')}] m/s²`,
    '',
  ].join('\n');
}

/** the method with its parameters, defaults filled in */
function stabilizationText(given: Stabilization): string {
  const s = resolveStabilization(given);
  if (s.method === 'baumgarte') return `baumgarte (alpha ${fmt(s.alpha)} 1/s, beta ${fmt(s.beta)} 1/s²)`;
  if (s.method === 'spook') {
    return `spook (relaxation ${fmt(s.relaxation)} steps, compliance ${fmt(s.compliance)})`;
  }
  const mass = [s.positionMetric === 'mass' ? 'positions' : '', s.velocityMetric === 'mass' ? 'velocities' : '']
    .filter(Boolean);
  return mass.length === 0 ? 'projection' : `projection (${mass.join(' and ')} mass-weighted)`;
}
