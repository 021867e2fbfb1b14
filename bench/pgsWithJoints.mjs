// Run after `npm run build`: node bench/pgsWithJoints.mjs [links]. docs/contact.md, "PGS with joints".
// PGS with joints: (a) Gauss-Seidel on W = N A⁻¹ Nᵀ formed through the factorization, against (b)
// Gauss-Seidel on the whole KKT system (000 §0.15): joint rows and contact rows swept together with
// each body's M̂⁻¹ block. One step of a chain of capsules lying on the floor, from the same state.
import { Simulation } from '../dist/src/simulation.js';
import { parseModel } from '../dist/src/io/loader.js';
import { cscToDense } from '../dist/src/math/sparse/csc.js';
import { luDense, luSolveDense } from '../dist/src/math/dense.js';
import { boxPgs } from '../dist/src/solvers/lcp/pgs.js';
import { BoxLcpPivoting } from '../dist/src/solvers/lcp/pivoting.js';
import { DenseLcpMatrix } from '../dist/src/solvers/lcp/types.js';
const N = Number(process.argv[2] ?? 10), L = 0.2, r = 0.03, h = 1 / 60;
const bodies = [], joints = [];
for (let i = 0; i < N; i++) {
  bodies.push({ name: `l${i}`, mass: 0.2, shape: { type: 'capsule', radius: r, length: L, friction: 0.5 }, orientation: [Math.SQRT1_2, 0, Math.SQRT1_2, 0], position: [(i + 0.5) * (L + 2 * r), 0, r + 0.004], velocity: [0, 0.5 * Math.sin(i), -1], angularVelocity: [0, 0, 2 * Math.cos(i)] });
  if (i > 0) joints.push({ type: "ball", bodyA: `l${i - 1}`, bodyB: `l${i}`, position: [i * (L + 2 * r), 0, r + 0.004] });
}
const model = parseModel({ version: 1, step: h, contact: { solver: 'pivoting' }, world: { shapes: [{ type: 'plane', friction: 0.5 }] }, bodies, joints });
const sim = new Simulation(model); const ws0 = () => sim.ws;
// intercept the velocity solve of step 2: the factored A, the rhs, the rows
let cap = null;
const vs = sim.stepper.solver, solve0 = vs.solve.bind(vs);
vs.solve = (rows, rhs, x, u) => { cap = { rhs: rhs.slice(), u: u.slice(), A: ws0().stepMatrix().slice() }; solve0(rows, rhs, x, u); cap.x = x.slice(); };
sim.step(2);
const ws = sim.ws, rows = sim.stepper.rows, n = model.nSolve, m = model.nRows, K = n + m, k = rows.count;
const A = cscToDense({ ...ws.fs.layout, values: cap.A }), lu = luDense(A, K);
// N̄ (k × K) and the reference: exact reduced LCP by pivoting
const Nb = []; for (let j = 0; j < k; j++) { const e = new Float64Array(K); vs.W.reset(rows); vs.W.scatterRow(e, j, 1); Nb.push(e); }
const x0 = luSolveDense(new Float64Array(K), lu, cap.rhs), Y = Nb.map((e) => luSolveDense(new Float64Array(K), lu, e));
const W = new Float64Array(k * k), q = new Float64Array(k), uf = cap.u.slice();
ws.scatterAdd(uf, x0, 1);
for (let i = 0; i < k; i++) { for (let j = 0; j < k; j++) { let s = 0; for (let t = 0; t < K; t++) s += Nb[i][t] * Y[j][t]; W[i * k + j] = s; } q[i] = rows.rowVelocity(i, uf, ws.uOffsets, ws.bodyFlags) + rows.b[i]; }
const lo = rows.lo.slice(0, k), hi = rows.hi.slice(0, k), fr = { normalOf: rows.normalOf.slice(0, k), mu: rows.mu.slice(0, k) };
const zRef = new Float64Array(k); new BoxLcpPivoting(k).solve(new DenseLcpMatrix(k, W), q, lo, hi, fr, zRef);
const uOf = (z) => { const x = x0.slice(); for (let j = 0; j < k; j++) for (let t = 0; t < K; t++) x[t] += z[j] * Y[j][t]; return x.slice(0, n); };
const uRef = cap.x.slice(0, n), scale = 9.81 * h;
// (b) the whole KKT: rows [G; N] with M̂⁻¹ (block diagonal here), joint rows equalities G v = c
const Minv = []; { const M = new Float64Array(n * n); for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) M[i * n + j] = A[i * K + j]; const f = luDense(M, n); for (let j = 0; j < n; j++) { const e = new Float64Array(n); e[j] = 1; Minv.push(luSolveDense(new Float64Array(n), f, e)); } }
const Jr = [], tgt = [], blo = [], bhi = [], nOf = [], mus = [];
for (let i = 0; i < m; i++) { const g = new Float64Array(n); for (let j = 0; j < n; j++) g[j] = A[(n + i) * K + j]; Jr.push(g); tgt.push(cap.rhs[n + i]); blo.push(-Infinity); bhi.push(Infinity); nOf.push(-1); mus.push(0); }
for (let j = 0; j < k; j++) { Jr.push(Nb[j].slice(0, n)); tgt.push(null); blo.push(lo[j]); bhi.push(hi[j]); nOf.push(fr.normalOf[j] >= 0 ? m + fr.normalOf[j] : -1); mus.push(fr.mu[j]); }
function kktGs(sweeps) {
  const R = Jr.length, lam = new Float64Array(R), dv = new Float64Array(n);
  // free Δu without any row: M̂⁻¹ r
  const r0 = cap.rhs.slice(0, n); for (let i = 0; i < n; i++) { let s = 0; for (let j = 0; j < n; j++) s += Minv[j][i] * r0[j]; dv[i] = s; }
  const MJ = Jr.map((g) => { const o = new Float64Array(n); for (let j = 0; j < n; j++) if (g[j] !== 0) for (let i = 0; i < n; i++) o[i] += Minv[j][i] * g[j]; return o; });
  const D = Jr.map((g, i) => { let s = 0; for (let t = 0; t < n; t++) s += g[t] * MJ[i][t]; return s; });
  const uS = new Float64Array(n); for (let b = 0; b < model.blockComponent.length; b++) { const c = model.blockComponent[b], o = model.components[c].uOffset, s0 = model.blockStart[b]; for (let t = 0; t < model.blockSize[b]; t++) uS[s0 + t] = cap.u[o + t]; }
  for (let s = 0; s < sweeps; s++) for (let i = 0; i < R; i++) {
    let jv = 0; for (let t = 0; t < n; t++) jv += Jr[i][t] * (uS[t] + dv[t]);
    // joint rows: G(u + Δu) = target + G u (the rhs holds c − G u); contact rows: w = J v + b
    let w;
    if (i < m) { let gu = 0; for (let t = 0; t < n; t++) gu += Jr[i][t] * uS[t]; w = jv - (tgt[i] + gu); }
    else w = jv + rows.b[i - m];
    let l = lam[i] - w / D[i], lo_ = blo[i], hi_ = bhi[i];
    if (nOf[i] >= 0) { hi_ = mus[i] * lam[nOf[i]]; lo_ = -hi_; }
    l = Math.min(hi_, Math.max(lo_, l));
    const d = l - lam[i]; lam[i] = l; if (d !== 0) for (let t = 0; t < n; t++) dv[t] += d * MJ[i][t];
  }
  // joint-row violation |G v − c| and contact-row violation (w < 0 of normal rows), in units of g h
  let jv = 0, cv = 0;
  for (let i = 0; i < R; i++) {
    let x = 0, gu = 0; for (let t = 0; t < n; t++) { x += Jr[i][t] * (uS[t] + dv[t]); gu += Jr[i][t] * uS[t]; }
    if (i < m) jv = Math.max(jv, Math.abs(x - (tgt[i] + gu))); else if (nOf[i] < 0) cv = Math.max(cv, -(x + rows.b[i - m]));
  }
  return { jv: jv / (9.81 * h), cv: cv / (9.81 * h) };
}
var err = function (u) { let e = 0; for (let i = 0; i < n; i++) e = Math.max(e, Math.abs(u[i] - uRef[i])); return e / scale; }
console.log("engine solve", JSON.stringify(vs.report), "dense pivoting vs engine", err(uOf(zRef)));
console.log(`chain of ${N} capsules on the floor: ${n} velocity unknowns, ${m} joint rows, ${k} contact rows`);
for (const it of [10, 30, 100, 300]) {
  // (a) PGS on W through the factorization (W's k columns: k solves)
  const z = new Float64Array(k); const rep = boxPgs(new DenseLcpMatrix(k, W), q, lo, hi, fr, z, { maxIterations: it, tolerance: 0 });
  let cva = 0; for (let i = 0; i < k; i++) { if (fr.normalOf[i] >= 0) continue; let w = q[i]; for (let j = 0; j < k; j++) w += W[i * k + j] * z[j]; cva = Math.max(cva, -w); }
  const b = kktGs(it);
  console.log(`${it} sweeps: W through the factorization: joints exact, contact violation ${(cva / (9.81 * h)).toExponential(1)} g h, LCP residual ${rep.residual.toExponential(1)}; whole KKT: joint violation ${b.jv.toExponential(1)} g h, contact violation ${b.cv.toExponential(1)} g h`);
}
