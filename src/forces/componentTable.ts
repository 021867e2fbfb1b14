/**
 * The components a force effector (or the workspace) loops over, as flat arrays: the loops of
 * gravity, the inertial forces and the workspace read these instead of the component objects.
 * On the 10 000-link chain, a pass through the objects (array → component → fields, one heap
 * object per body, spread over the heap) costs about twice as much per body as on the 100-link
 * chain, most of it in address translation (the joints' JointBatch exists for the same reason).
 */
import type { Component } from '../model/model.js';

export class ComponentTable {
  /** (count) the component's index in the model */
  readonly index: Int32Array;
  /** (count) its offset in u */
  readonly uOffset: Int32Array;
  /** (count) its offset in q */
  readonly qOffset: Int32Array;
  /** (count) its mass (kg) */
  readonly mass: Float64Array;
  /** (count) 1 for a rigid body, 0 for a particle */
  readonly body: Uint8Array;
  /** (count) 1 when it is dynamic */
  readonly dynamic: Uint8Array;

  constructor(comps: readonly Component[]) {
    this.index = Int32Array.from(comps, (c) => c.index);
    this.uOffset = Int32Array.from(comps, (c) => c.uOffset);
    this.qOffset = Int32Array.from(comps, (c) => c.qOffset);
    this.mass = Float64Array.from(comps, (c) => c.mass);
    this.body = Uint8Array.from(comps, (c) => (c.kind === 'body' ? 1 : 0));
    this.dynamic = Uint8Array.from(comps, (c) => (c.dynamic ? 1 : 0));
  }

  get count(): number { return this.index.length; }
}
