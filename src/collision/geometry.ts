/**
 * The data of shapes that need more than a few sizes: convex hulls and triangle meshes (a height
 * field is a triangle mesh made from its grid). Built once, before the simulation, and never
 * changed: a shape table holds a reference per shape (ShapeTable.geometry), and the narrowphase
 * reads them. Coordinates are in the shape's own frame (docs/theory.md §17).
 *
 * The classes that build them (./hull.ts, ./mesh.ts) implement these interfaces; everything in the
 * step reads only the interfaces.
 */

/** what every geometry gives the shape table: its bounds in its own frame */
export interface GeometryBounds {
  /** (3) centre of the axis-aligned box holding the geometry, shape frame, m */
  readonly boxCenter: Float64Array;
  /** (3) half extents of that box, m */
  readonly boxHalf: Float64Array;
  /** radius of the sphere about the shape frame's origin holding the geometry, m */
  readonly radius: number;
}

/**
 * A convex polyhedron: vertices, faces (convex polygons, counter-clockwise seen from outside, with
 * coplanar triangles merged) and edges, with their adjacency.
 */
export interface HullData extends GeometryBounds {
  /** tells a hull from a mesh */
  readonly type: 'hull';
  /** number of vertices V */
  readonly vertexCount: number;
  /** (3V) vertex positions */
  readonly vertices: Float64Array;
  /** number of faces F */
  readonly faceCount: number;
  /** (F+1) face f's vertices are faceVertices[faceStart[f] .. faceStart[f+1]) */
  readonly faceStart: Int32Array;
  /** the faces' vertex indices, each face counter-clockwise seen from outside */
  readonly faceVertices: Int32Array;
  /** (3F) unit outward face normals n_f */
  readonly faceNormals: Float64Array;
  /** (F) offsets d_f: the face's plane is n_f·x = d_f */
  readonly faceOffsets: Float64Array;
  /** number of edges E */
  readonly edgeCount: number;
  /** (2E) each edge once, as its vertex pair (lower index first) */
  readonly edges: Int32Array;
  /** (2E) the two faces that share each edge */
  readonly edgeFaces: Int32Array;
}

/**
 * A triangle mesh: vertices, triangles (counter-clockwise seen from the outside or from above),
 * their normals, the neighbour across each edge, and whether each edge is convex. The bounding
 * volume hierarchy over the triangles lives with the class that builds it (./mesh.ts).
 */
export interface TriMeshData extends GeometryBounds {
  /** tells a mesh from a hull */
  readonly type: 'mesh';
  /** number of vertices V */
  readonly vertexCount: number;
  /** (3V) vertex positions */
  readonly vertices: Float64Array;
  /** number of triangles T */
  readonly triangleCount: number;
  /** (3T) vertex indices of each triangle */
  readonly triangles: Int32Array;
  /** (3T) unit normals */
  readonly triangleNormals: Float64Array;
  /** true when every edge has exactly two triangles, consistently oriented (a closed surface) */
  readonly closed: boolean;
}

/** the data of a hull or a mesh shape */
export type ShapeGeometry = HullData | TriMeshData;
