/**
 * Vinculum: constrained mechanical systems (particles, rigid bodies, springs, via-point springs,
 * frame springs, joints) with exact Jacobians, implicit integrators and direct sparse solves.
 *
 * Build a {@link Model} from a model file's content ({@link parseModel}), from a file in Node
 * (`loadModel` of `vinculum/node`) or in code ({@link ModelBuilder}); then step a
 * {@link Simulation} of it and read its bodies, joints and forces by name. Everything here runs
 * in browsers as in Node: nothing touches the file system.
 *
 * @example
 * ```ts
 * import { ModelBuilder, Simulation } from 'vinculum';
 * const model = new ModelBuilder()
 *   .addBody({ name: 'bob', shape: { type: 'sphere', radius: 0.05 }, density: 7800, position: [1, 0, 0] })
 *   .addJoint({ type: 'distance', points: [['world', [0, 0, 0]], 'bob'] })
 *   .build();
 * ```
 * @packageDocumentation
 */
export { parseModel, type ParseOptions } from './io/loader.js';
export { ModelBuilder, type ModelOptions, type ParticleOptions, type BodyOptions, type MarkerOptions, type ForceOptions, type JointOptions, type WorldShapeOptions, type ContactOptions, type SurfaceMaterialOptions, type MaterialPairOptions, type BuildOptions } from './api/builder.js';
export type { MeshFileReader, MeshArrays } from './io/shapes.js';
export type { ShapeGeometry, HullData, TriMeshData, GeometryBounds } from './collision/geometry.js';
export { Model, DEFAULT_SETTINGS, type ModelSettings, type Stabilization, type Component, type Particle, type RigidBody, type Marker, type Vec3Tuple, type QuatTuple } from './model/model.js';
export { DEFAULT_CONTACT, type ContactSettings, type ShapeEntry, type ShapeMaterial, type JointLimit, type JointMotor, type NamedMaterial, type MaterialPair } from './model/contactModel.js';
export { Simulation, type SimulationOptions, type Energy, type Diagnostics, type WorstViolation, type FastestTurn, type Violation } from './simulation.js';
export { ComponentHandle, BodyHandle, ParticleHandle, JointHandle, ForceHandle, type Wrench, type SpringState } from './api/handles.js';
export { MAX_STEPS, type RunOptions, type RunProgress, type RunResult } from './api/run.js';
export type { ContactReport } from './api/contacts.js';
export type { ContactSolveReport, ContactSolverName } from './step/solve.js';
export type { LcpReport, LcpStatus } from './solvers/lcp/types.js';
export { solveQP, qpAsLcp, lcpAsQP, solveLcpAsQP, activeSetQP, type QpProblem, type QpSolution, type DenseLcp, type QpAsLcp, type LcpSolution } from './solvers/lcp/qp.js';
export type { LemkeOptions } from './solvers/lcp/lemke.js';
export type { SimulationWarning, WarningKind, WarningListener } from './report/warnings.js';
export type { Checkpoint, State } from './model/state.js';
export type { StepSolverOptions } from './solvers/stepSolver.js';
export { ModelError, DivergenceError } from './model/errors.js';
export { INTEGRATORS, isIntegratorName, type IntegratorName } from './integrators/names.js';
export { modelJsonSchema } from './io/jsonSchema.js';
export { oneLine } from './io/messages.js';
export { OUTPUT_GROUPS, outputColumns, WRENCH_COLUMNS, type OutputGroup, type OutputColumns } from './api/outputs.js';
export { describeScene, SceneSampler, CONTACT_STRIDE, type SceneDescription, type SceneFrame, type SceneShape, type SceneComponent, type SceneJoint, type SceneLine, type ScenePoint, type SceneFrameOn, type SceneMesh } from './api/scene.js';
