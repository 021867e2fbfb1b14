/**
 * A height field: a grid of heights over the x–y plane of the shape frame, z up, turned into a
 * triangle mesh (./mesh.ts) so that one narrowphase path serves both (docs/theory.md §17).
 *
 * Model-file form: `{ "type": "heightfield", "size": [L_x, L_y], "heights": [[…row 0…], …] }`.
 * Row j of `heights` lies at y_j = −L_y/2 + j L_y/(n_y − 1), column i at x_i = −L_x/2 + i L_x/(n_x − 1),
 * so the grid is centred on the shape origin; vertex (i, j) is (x_i, y_j, heights[j][i]) and has
 * index j n_x + i. Each cell (i, j)…(i+1, j+1) is split along its diagonal from (i, j) to
 * (i+1, j+1) into the triangles [(i, j), (i+1, j), (i+1, j+1)] and [(i, j), (i+1, j+1), (i, j+1)],
 * counter-clockwise seen from above, so every normal has n_z > 0: cell c = j (n_x − 1) + i holds
 * triangles 2c and 2c + 1.
 */
import { ModelError } from '../model/errors.js';
import { TriMesh } from './mesh.js';

/** a height field as the model file gives it */
export interface HeightFieldDesc {
  /** [L_x, L_y]: the extent of the grid along x and y, m */
  readonly size: readonly number[];
  /** heights[j][i] at (x_i, y_j), m: rows along y, columns along x, at least 2 × 2 */
  readonly heights: readonly (readonly number[])[];
}

/**
 * the triangle mesh of a height field; throws a ModelError at `path` (default `shape "name"`,
 * followed by `.size` or `.heights[j][i]`) on bad input
 */
export function heightFieldMesh(desc: HeightFieldDesc, name: string, path = `shape "${name}"`): TriMesh {
  const [lx, ly] = checkSize(desc.size, path);
  const { nx, ny } = checkHeights(desc.heights, path);
  // vertices row by row
  const vertices = new Float64Array(3 * nx * ny);
  for (let j = 0; j < ny; j++) {
    const row = desc.heights[j]!, y = -0.5 * ly + (j * ly) / (ny - 1);
    for (let i = 0; i < nx; i++) {
      const v = 3 * (j * nx + i);
      vertices[v] = -0.5 * lx + (i * lx) / (nx - 1); vertices[v + 1] = y; vertices[v + 2] = row[i]!;
    }
  }
  // two triangles per cell, split along the (i, j)–(i+1, j+1) diagonal
  const triangles = new Int32Array(6 * (nx - 1) * (ny - 1));
  let o = 0;
  for (let j = 0; j < ny - 1; j++) {
    for (let i = 0; i < nx - 1; i++) {
      const a = j * nx + i, b = a + 1, c = a + nx + 1, d = a + nx;
      triangles[o++] = a; triangles[o++] = b; triangles[o++] = c;
      triangles[o++] = a; triangles[o++] = c; triangles[o++] = d;
    }
  }
  return new TriMesh(vertices, triangles, name, path);
}

/** [L_x, L_y], both finite and > 0 */
function checkSize(size: readonly number[], path: string): [number, number] {
  if (!Array.isArray(size) || size.length !== 2 || !size.every((v) => Number.isFinite(v) && v > 0)) {
    throw new ModelError(`${path}.size`, `expected [L_x, L_y], finite and > 0, got ${JSON.stringify(size)}`);
  }
  return [size[0]!, size[1]!];
}

/** the grid's columns n_x and rows n_y: rectangular, at least 2 × 2, every height finite */
function checkHeights(h: readonly (readonly number[])[], path: string): { nx: number; ny: number } {
  if (!Array.isArray(h) || h.length < 2) {
    throw new ModelError(`${path}.heights`, 'expected at least 2 rows of heights');
  }
  const nx = Array.isArray(h[0]) ? h[0].length : 0;
  if (nx < 2) throw new ModelError(`${path}.heights[0]`, 'expected at least 2 heights in a row');
  h.forEach((row, j) => {
    if (!Array.isArray(row) || row.length !== nx) {
      const got = Array.isArray(row) ? row.length : typeof row;
      throw new ModelError(`${path}.heights[${j}]`, `expected ${nx} heights, as row 0 has, got ${got}`);
    }
    row.forEach((v, i) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw new ModelError(`${path}.heights[${j}][${i}]`, `must be a finite number, got ${String(v)}`);
      }
    });
  });
  return { nx, ny: h.length };
}
