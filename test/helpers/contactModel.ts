/**
 * Test models with contact data while the loader does not read it yet: a parsed model rebuilt
 * with shapes, contact settings, limits and motors added.
 */
import { parseModel } from '../../src/io/loader.js';
import { Model } from '../../src/model/model.js';
import { DEFAULT_CONTACT, type ContactSettings, type ShapeEntry, type JointLimit, type JointMotor } from '../../src/model/contactModel.js';

export function withContacts(json: object, extra: { contact?: Partial<ContactSettings>; shapes?: ShapeEntry[]; limits?: JointLimit[]; motors?: JointMotor[] }): Model {
  const m = parseModel(json);
  return new Model({
    components: [...m.components], markers: [...m.markers], forces: [...m.forces], settings: m.settings,
    nq: m.nq, nu: m.nu, q0: m.initialQ, u0: m.initialU, constraints: [...m.constraints],
    builtinForces: m.forces.length - m.forceNames.length,
    contact: { ...DEFAULT_CONTACT, ...extra.contact }, shapes: extra.shapes ?? [], limits: extra.limits ?? [], motors: extra.motors ?? [],
  });
}

export const material = (friction = 0.5, restitution = 0, compliance = 0, damping = 0) => ({ friction, restitution, compliance, damping });

/** a world plane through p with +z along the unit normal of the rotation q */
export function plane(position: [number, number, number] = [0, 0, 0], orientation: [number, number, number, number] = [1, 0, 0, 0], mat = material()): ShapeEntry {
  return { name: 'world.shapes[0]', kind: 'plane', component: -1, params: [], position, orientation, material: mat, collide: true };
}

export function shapeOf(component: number, kind: ShapeEntry['kind'], params: number[], mat = material(), position: [number, number, number] = [0, 0, 0]): ShapeEntry {
  return { name: `c${component}`, kind, component, params, position, orientation: [1, 0, 0, 0], material: mat, collide: true };
}
