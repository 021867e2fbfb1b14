/**
 * A model given as an object (parseModel, ModelBuilder) must be data JSON could hold: plain
 * objects and arrays of strings, numbers, booleans and null. The schema names most wrong values
 * itself (a function where a number belongs); this pass finds what it cannot: a class instance
 * that passes for an object (a Map has no fields, so the schema would report them missing), and
 * a cycle. It walks with its own stack, visits each object once and stops at the first problem.
 * Undefined properties are left out, as JSON.stringify leaves them; numbers (NaN, Infinity) are
 * the schema's to check.
 */
import { className, isPlainData } from '../model/format.js';
import { formatPath, type PathSegment } from './messages.js';

/** the first value that is not JSON data: its path and what it is, or null */
export function findNonJsonValue(root: unknown): { path: PathSegment[]; detail: string } | null {
  interface Frame { v: object; keys: readonly string[] | null; next: number }
  const stack: Frame[] = [];
  const path: PathSegment[] = [];
  const open = new Set<object>();   // the objects on the current path (a cycle returns to one of them)
  const done = new Set<object>();   // objects already checked (shared, not cyclic, references)
  const pathOf = new Map<object, number>();  // depth of each open object, to name the one a cycle returns to
  // checks one value at the current path; an object to walk into is pushed
  const visit = (v: unknown): { path: PathSegment[]; detail: string } | null => {
    if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') {
      const what = typeof v === 'bigint' ? `the bigint ${v}n` : `a ${typeof v}`;
      return { path: [...path], detail: `expected JSON data, got ${what}` };
    }
    if (typeof v !== 'object' || v === null || done.has(v)) return null;
    if (open.has(v)) {
      const back = path.slice(0, pathOf.get(v)!);
      const at = back.length ? formatPath(back, root) : 'the top of the model';
      return {
        path: [...path], detail: `expected JSON data, got a cycle (a reference back to ${at}, which contains it)`,
      };
    }
    if (!isPlainData(v)) {
      return { path: [...path], detail: `expected JSON data (plain objects and arrays), got ${className(v)}` };
    }
    open.add(v);
    pathOf.set(v, path.length);
    stack.push({ v, keys: Array.isArray(v) ? null : Object.keys(v), next: 0 });
    return null;
  };
  const bad = visit(root);
  if (bad) return bad;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const n = top.keys ? top.keys.length : (top.v as unknown[]).length;
    if (top.next >= n) {
      stack.pop();
      open.delete(top.v);
      done.add(top.v);
      if (stack.length > 0) path.pop();
      continue;
    }
    const seg = top.keys ? top.keys[top.next]! : top.next;
    top.next++;
    const child = (top.v as Record<PathSegment, unknown>)[seg];
    if (child === undefined && top.keys) continue;   // left out, as JSON.stringify does
    path.push(seg);
    const depth = stack.length;
    const found = visit(child);
    if (found) return found;
    if (stack.length === depth) path.pop();   // a leaf: its segment is done
  }
  return null;
}
