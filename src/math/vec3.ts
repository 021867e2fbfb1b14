/**
 * 3-vectors as `Float64Array(3)`, with output-first helpers (`add(out, a, b)`).
 *
 * Every helper writes into `out` and returns it; none allocates except `vec3()`.
 * `out` may alias an input unless the comment says otherwise.
 */
export type Vec3 = Float64Array;

/** a new zero (or given) 3-vector; call at set-up, never inside a step */
export function vec3(x = 0, y = 0, z = 0): Vec3 {
  const v = new Float64Array(3);
  v[0] = x; v[1] = y; v[2] = z;
  return v;
}

export function set3(out: Vec3, x: number, y: number, z: number): Vec3 {
  out[0] = x; out[1] = y; out[2] = z;
  return out;
}

export function copy3(out: Vec3, a: ArrayLike<number>, ao = 0): Vec3 {
  out[0] = a[ao]!; out[1] = a[ao + 1]!; out[2] = a[ao + 2]!;
  return out;
}

/** writes a into arr[o..o+2] */
export function store3(arr: Float64Array, o: number, a: Vec3): void {
  arr[o] = a[0]!; arr[o + 1] = a[1]!; arr[o + 2] = a[2]!;
}

export function add3(out: Vec3, a: Vec3, b: Vec3): Vec3 {
  out[0] = a[0]! + b[0]!; out[1] = a[1]! + b[1]!; out[2] = a[2]! + b[2]!;
  return out;
}

export function sub3(out: Vec3, a: Vec3, b: Vec3): Vec3 {
  out[0] = a[0]! - b[0]!; out[1] = a[1]! - b[1]!; out[2] = a[2]! - b[2]!;
  return out;
}

export function scale3(out: Vec3, a: Vec3, s: number): Vec3 {
  out[0] = a[0]! * s; out[1] = a[1]! * s; out[2] = a[2]! * s;
  return out;
}

/** out = a + s b */
export function axpy3(out: Vec3, a: Vec3, s: number, b: Vec3): Vec3 {
  out[0] = a[0]! + s * b[0]!; out[1] = a[1]! + s * b[1]!; out[2] = a[2]! + s * b[2]!;
  return out;
}

export function dot3(a: Vec3, b: Vec3): number {
  return a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
}

/** out = a × b; out must not alias a or b */
export function cross3(out: Vec3, a: Vec3, b: Vec3): Vec3 {
  const ax = a[0]!, ay = a[1]!, az = a[2]!, bx = b[0]!, by = b[1]!, bz = b[2]!;
  out[0] = ay * bz - az * by;
  out[1] = az * bx - ax * bz;
  out[2] = ax * by - ay * bx;
  return out;
}

export function norm3(a: Vec3): number {
  return Math.sqrt(a[0]! * a[0]! + a[1]! * a[1]! + a[2]! * a[2]!);
}

export function isFinite3(a: ArrayLike<number>): boolean {
  return Number.isFinite(a[0]) && Number.isFinite(a[1]) && Number.isFinite(a[2]);
}
