/**
 * The public API of vinculum: build a model (programmatically or from a JSON model file), then
 * step a Simulation. Browser-safe: nothing here touches the file system.
 */
export { ModelAssembler, type ParticleSpec, type BodySpec, type MarkerSpec } from './model/assembler.js';
export { Model, DEFAULT_SETTINGS, type ModelSettings, type Component, type Particle, type RigidBody, type Marker, type Vec3Tuple, type QuatTuple } from './model/model.js';
export { State, type Checkpoint } from './model/state.js';
export { ModelError, DivergenceError } from './model/errors.js';
export type { PointRef } from './model/points.js';
export { Simulation, type SimulationOptions, type Energy, type WorstViolation } from './simulation.js';
export { INTEGRATORS, isIntegratorName, type IntegratorName } from './integrators/names.js';
export type { ForceEffector, ForceContext } from './forces/force.js';
export { PathSpring, AxialSpring } from './forces/pathSpring.js';
export { FrameSpring, type FrameSpringParams } from './forces/frameSpring.js';
export { LinearMaterial, QuadraticStrainMaterial, ExponentialLigament, type AxialMaterial } from './forces/materials.js';
export { parseModel, parseModelDocument } from './io/loader.js';
export { modelJsonSchema } from './io/jsonSchema.js';
