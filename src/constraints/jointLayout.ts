/**
 * The joint layouts (src/constraints/joint.ts): the mask presets, and which rows and readable
 * coordinates a preset or custom mask gives. Each row has a code for the row kernels of
 * ./jointRows.ts: its axis k (0…2) for a translational row, 3 + k for a rotational lock, 6 for the
 * universal row.
 */
import { ModelError } from '../model/errors.js';

export type JointType = 'ball' | 'hinge' | 'slider' | 'cylindrical' | 'universal' | 'gimbal' | 'planar' | 'point-on-plane' | 'point-on-line' | 'weld';

/** which axes of frame C are locked (true) for translation and rotation */
export interface JointMask {
  readonly linear: readonly [boolean, boolean, boolean];
  readonly angular: readonly [boolean, boolean, boolean];
}

/** the readable coordinates of the rotation: none, one angle, the two universal angles, or RPY */
export type RotationCoordinates = 'none' | 'angle' | 'universal' | 'rpy';

interface Preset { readonly linear: readonly [boolean, boolean, boolean]; readonly angular: readonly [boolean, boolean, boolean]; readonly universal: boolean; readonly rpy: boolean }
const T = true, F = false;

/** the presets: locked axes of C (the universal row replaces the rotational locks of `universal`) */
export const JOINT_PRESETS: Readonly<Record<JointType, Preset>> = Object.freeze({
  'ball': { linear: [T, T, T], angular: [F, F, F], universal: false, rpy: false },
  'hinge': { linear: [T, T, T], angular: [T, T, F], universal: false, rpy: false },
  'slider': { linear: [T, T, F], angular: [T, T, T], universal: false, rpy: false },
  'cylindrical': { linear: [T, T, F], angular: [T, T, F], universal: false, rpy: false },
  'universal': { linear: [T, T, T], angular: [F, F, F], universal: true, rpy: false },
  'gimbal': { linear: [T, T, T], angular: [F, F, F], universal: false, rpy: true },
  'planar': { linear: [F, F, T], angular: [T, T, F], universal: false, rpy: false },
  'point-on-plane': { linear: [F, F, T], angular: [F, F, F], universal: false, rpy: false },
  'point-on-line': { linear: [T, T, F], angular: [F, F, F], universal: false, rpy: false },
  'weld': { linear: [T, T, T], angular: [T, T, T], universal: false, rpy: false },
} satisfies Record<JointType, Preset>);

/** the row and coordinate layout of a joint, resolved from a preset or a custom mask */
export interface JointLayout {
  readonly type: JointType | 'custom';
  readonly linear: Int32Array;        // locked translational axes of C, ascending (rows 0 …)
  readonly angular: Int32Array;       // locked rotational axes (lock rows, after the translational ones)
  readonly universal: boolean;        // one universal row last
  readonly rows: number;
  readonly codes: Int32Array;         // (rows) each row's kernel code: k, 3 + k or 6 (header)
  readonly freeLinear: Int32Array;    // free translational axes (coordinates)
  readonly rotation: RotationCoordinates;
  readonly angleAxis: number;         // the free rotation axis for 'angle', else −1
  readonly rowNames: readonly string[];
  readonly coordinateNames: readonly string[];
}

const AXES = ['x', 'y', 'z'] as const;

/**
 * resolves a preset name or a custom mask; throws ModelError for unknown names, bad masks or no
 * rows. Every joint of one preset shares one layout (read-only): on long chains the joints' own
 * copies were so many more objects for each evaluation to fetch from memory.
 */
export function jointLayout(type: JointType | JointMask, path: string): JointLayout {
  if (typeof type === 'string' && Object.prototype.hasOwnProperty.call(PRESET_LAYOUTS, type)) return PRESET_LAYOUTS[type];
  return resolveLayout(type, path);
}

function resolveLayout(type: JointType | JointMask, path: string): JointLayout {
  let p: Preset, name: JointType | 'custom';
  if (typeof type === 'string') {
    if (!Object.prototype.hasOwnProperty.call(JOINT_PRESETS, type)) throw new ModelError(`${path}.type`, `unknown joint type "${type}" (one of ${Object.keys(JOINT_PRESETS).join(', ')}, or a mask)`);
    p = JOINT_PRESETS[type];
    name = type;
  } else {
    const ok = (m: unknown): m is [boolean, boolean, boolean] => Array.isArray(m) && m.length === 3 && m.every((b) => typeof b === 'boolean');
    if (!type || !ok(type.linear) || !ok(type.angular)) throw new ModelError(`${path}.type`, 'a custom mask is { linear: [bool, bool, bool], angular: [bool, bool, bool] } (true = locked)');
    p = { linear: type.linear, angular: type.angular, universal: false, rpy: false };
    name = 'custom';
  }
  const axes = (m: readonly boolean[], locked: boolean) => Int32Array.from([0, 1, 2].filter((k) => m[k] === locked));
  const linear = axes(p.linear, true), angular = axes(p.angular, true), freeLinear = axes(p.linear, false);
  const rows = linear.length + angular.length + (p.universal ? 1 : 0);
  if (rows === 0) throw new ModelError(`${path}.type`, 'the mask locks nothing (a joint needs at least one row)');
  // rotational coordinates: RPY (gimbal), the universal pair, or the one free axis of lock rows
  const freeAngular = axes(p.angular, false);
  const rotation: RotationCoordinates = p.rpy ? 'rpy' : p.universal ? 'universal' : freeAngular.length === 1 ? 'angle' : 'none';
  const angleAxis = rotation === 'angle' ? freeAngular[0]! : -1;
  const rowNames = [...Array.from(linear, (k) => `t${AXES[k]}`), ...Array.from(angular, (k) => `r${AXES[k]}`), ...(p.universal ? ['universal'] : [])];
  const rot = rotation === 'rpy' ? ['theta', 'phi', 'psi'] : rotation === 'universal' ? ['rx', 'ry'] : rotation === 'angle' ? [`r${AXES[angleAxis]}`] : [];
  const coordinateNames = [...Array.from(freeLinear, (k) => `t${AXES[k]}`), ...rot];
  const codes = Int32Array.from([...linear, ...Array.from(angular, (k) => 3 + k), ...(p.universal ? [6] : [])]);
  return { type: name, linear, angular, universal: p.universal, rows, codes, freeLinear, rotation, angleAxis, rowNames, coordinateNames };
}

/** the layouts of the presets, resolved once */
const PRESET_LAYOUTS: Readonly<Record<JointType, JointLayout>> = Object.freeze(Object.fromEntries(
  (Object.keys(JOINT_PRESETS) as JointType[]).map((t) => {
    // the names reach callers through Joint.rowNames and coordinateNames: frozen, since every joint
    // of the preset shares them (the typed arrays stay inside the joints)
    const L = resolveLayout(t, t);
    Object.freeze(L.rowNames);
    Object.freeze(L.coordinateNames);
    return [t, Object.freeze(L)];
  }),
) as Record<JointType, JointLayout>);
