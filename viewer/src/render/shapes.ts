/**
 * three.js objects for the model's shapes (SceneShape: the engine's collision geometry). Capsules
 * and cylinders lie along z, as in the engine (three.js builds them along y: turned here); boxes
 * take half extents; ellipsoids are scaled spheres; hulls and meshes come as triangles and are
 * drawn flat-shaded (each triangle its own normal); a plane is a finite square of side `planeSize`
 * with a grid, in the plane z = 0 of its frame.
 */
import {
  BoxGeometry, BufferGeometry, CapsuleGeometry, CylinderGeometry, DoubleSide, Float32BufferAttribute,
  FrontSide, GridHelper, Group, Mesh, MeshBasicMaterial, MeshLambertMaterial, PlaneGeometry, SphereGeometry,
  type Color, type Object3D,
} from 'three';
import type { SceneShape } from '../../../src/index.js';

/** the segments of curved surfaces: smooth enough at a viewer's sizes */
const ROUND = 32;

/** a material of one colour, lit (Lambert: no specular highlight that would wash the colour out) */
export function surface(color: Color, doubleSided = false): MeshLambertMaterial {
  return new MeshLambertMaterial({ color, side: doubleSided ? DoubleSide : FrontSide });
}

/** the triangles of a hull or mesh, one normal per triangle */
function triangles(mesh: NonNullable<SceneShape['mesh']>): BufferGeometry {
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(mesh.positions, 3));
  g.setIndex(mesh.indices);
  const flat = g.toNonIndexed();
  flat.computeVertexNormals();
  g.dispose();
  return flat;
}

/** the geometry of a closed shape (not a plane), in the shape's frame */
function solid(s: SceneShape): BufferGeometry {
  const p = s.params;
  switch (s.kind) {
    case 'sphere': return new SphereGeometry(p[0], ROUND, ROUND / 2);
    case 'capsule': return new CapsuleGeometry(p[0], 2 * p[1]!, ROUND / 4, ROUND).rotateX(Math.PI / 2);
    case 'box': return new BoxGeometry(2 * p[0]!, 2 * p[1]!, 2 * p[2]!);
    case 'cylinder': return new CylinderGeometry(p[0], p[0], 2 * p[1]!, ROUND).rotateX(Math.PI / 2);
    case 'ellipsoid': return new SphereGeometry(1, ROUND, ROUND / 2).scale(p[0]!, p[1]!, p[2]!);
    case 'hull':
    case 'mesh': return triangles(s.mesh!);
    case 'plane': throw new Error('a plane is not a solid');
  }
}

/** a plane: a square of side `size` with a grid on it (z = 0 of its frame, normal +z) */
function plane(color: Color, size: number): Group {
  const g = new Group();
  // a flat square's lighting is the same everywhere: an unlit material of its colour looks the same
  // and costs far less per pixel in a software renderer, where this square, covering much of the
  // view, took a contact scene from 37 to 22 frames per second (headless Chromium, 2 cores)
  const square = new Mesh(new PlaneGeometry(size, size), new MeshBasicMaterial({ color }));
  const grid = new GridHelper(size, 20, 0x8a9099, 0x9aa0a8);
  // GridHelper lies in three's x-z plane; the engine's plane is x-y
  grid.rotation.x = Math.PI / 2;
  grid.position.z = size * 1e-4;
  g.add(square, grid);
  return g;
}

/**
 * The object of shape `s` placed at its pose in its component's frame; `pickable` meshes carry
 * the component index in userData for picking.
 */
export function shapeObject(s: SceneShape, color: Color, planeSize: number): Object3D {
  const o = s.kind === 'plane' ? plane(color, planeSize) : new Mesh(solid(s), surface(color, s.kind === 'mesh'));
  const [w, x, y, z] = s.orientation;
  o.position.set(s.position[0], s.position[1], s.position[2]);
  o.quaternion.set(x, y, z, w);
  if (o instanceof Mesh) o.userData['component'] = s.component;
  return o;
}

/** a marker for a component without a shape: a sphere of radius r */
export function markerObject(component: number, color: Color, r: number): Mesh {
  const m = new Mesh(new SphereGeometry(r, ROUND / 2, ROUND / 4), surface(color));
  m.userData['component'] = component;
  return m;
}

/** the half diagonal of shape `s`'s extent about its origin (planes: 0), for framing the camera */
export function shapeRadius(s: SceneShape): number {
  const p = s.params;
  switch (s.kind) {
    case 'sphere': return p[0]!;
    case 'capsule': return p[0]! + p[1]!;
    case 'box': case 'ellipsoid': return Math.hypot(p[0]!, p[1]!, p[2]!);
    case 'cylinder': return Math.hypot(p[0]!, p[1]!);
    case 'plane': return 0;
    default: {
      const v = s.mesh!.positions;
      let r = 0;
      for (let i = 0; i < v.length; i += 3) r = Math.max(r, Math.hypot(v[i]!, v[i + 1]!, v[i + 2]!));
      return r;
    }
  }
}
