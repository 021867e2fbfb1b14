/**
 * The contact stages of a simulation, made from its model: the collider of the model's shapes
 * (src/collision), the contact rows and the joint limit and motor rows (src/contact). A model
 * without collidable shapes, limits or motors gets none, and its step is the bilateral one.
 */
import type { Model } from '../model/model.js';
import type { Workspace } from './workspace.js';
import { Collider } from '../collision/collide.js';
import { MaterialOverrides } from '../collision/materials.js';
import type { ShapeDesc } from '../collision/shapes.js';
import { ContactRowBuilder } from '../contact/contactRows.js';
import { JointRowBuilder } from '../contact/jointRows.js';
import { canTouch } from '../model/contactModel.js';

export interface ContactParts {
  readonly collider: Collider | null;
  readonly contactRows: ContactRowBuilder | null;
  readonly jointRows: JointRowBuilder | null;
}

/** the model's shapes as the collider takes them (named materials by their index in model.materials) */
export function shapeDescriptions(model: Model): ShapeDesc[] {
  const ids = new Map(model.materials.map((m, i) => [m.name, i]));
  return model.shapes.map((s) => {
    const c = s.component >= 0 ? model.components[s.component]! : null;
    const optional: Partial<ShapeDesc> = {};
    if (s.geometry) optional.geometry = s.geometry;
    if (s.group !== undefined) optional.group = s.group;
    if (s.mask !== undefined) optional.mask = s.mask;
    if (s.materialName !== undefined) optional.materialId = ids.get(s.materialName)!;
    return {
      kind: s.kind, component: s.component, qOffset: c ? c.qOffset : -1, isBody: c?.kind === 'body',
      params: s.params, position: s.position, orientation: s.orientation, material: { ...s.material },
      collide: s.collide, name: s.name, fixed: c ? !c.dynamic : true, ...optional,
    };
  });
}

/** the pair overrides of the model's named materials, by material index (null when it has none) */
export function materialOverrides(model: Model): MaterialOverrides | null {
  if (model.materialPairs.length === 0) return null;
  const ids = new Map(model.materials.map((m, i) => [m.name, i]));
  return new MaterialOverrides(model.materials.length, model.materialPairs.map((p) => ({
    a: ids.get(p.materials[0])!, b: ids.get(p.materials[1])!,
    friction: p.friction, restitution: p.restitution, compliance: p.compliance, damping: p.damping,
  })));
}

/**
 * the pairs of components joined by a joint or a distance constraint: they do not collide (their
 * shapes overlap at the joint by design; docs/contact.md), unless every constraint joining them
 * lets them (`"collide": true`, model.collidingConstraints)
 */
export function joinedPairs(model: Model): [number, number][] {
  const out: [number, number][] = [], colliding = new Set(model.collidingConstraints);
  for (const [ci, c] of model.constraints.entries()) {
    if (colliding.has(ci)) continue;
    const comps = c.components;
    for (let i = 0; i < comps.length; i++) for (let j = i + 1; j < comps.length; j++) out.push([comps[i]!, comps[j]!]);
  }
  return out;
}

export function contactParts(model: Model, ws: Workspace): ContactParts {
  const settings = model.contact;
  const collide = canTouch(model.shapes, (c) => model.components[c]!.dynamic);
  const comps = { qOffset: ws.qOffsets, uOffset: ws.uOffsets, body: ws.bodyFlags };
  const friction = settings.solver === 'lemke' ? 'polyhedral' as const : 'box' as const;
  return {
    collider: collide
      ? new Collider(shapeDescriptions(model), settings.margin, joinedPairs(model), materialOverrides(model))
      : null,
    contactRows: collide ? new ContactRowBuilder(comps, { erp: settings.erp, restitutionThreshold: settings.restitutionThreshold, friction, directions: settings.directions }) : null,
    jointRows: model.limits.length + model.motors.length > 0 ? new JointRowBuilder(model, ws.cs, settings) : null,
  };
}
