/**
 * Benchmarks (`npm run bench`; not part of the tests). Reports medians.
 *
 *   cloth-step   implicit-Euler step of the cloth at N×N = 10², 20², 50², 100² (h = 0.1/N s): ms/step and the
 *                fitted scaling exponent in the number of particles
 *   ldlt         numeric LDLᵀ factorization of the cloth's step matrix, AMD against natural order,
 *                scalar up-looking against supernodal (WebAssembly, and the same in JavaScript)
 *   chain100     the 100-link ball-joint chain (ms/step, joint separation, energy), the same scene
 *                in Rapier and cannon-es (bench/peers.ts, in a child process) as ratios, and the chain
 *                scaling over 100, 1 000 and 10 000 links; chain100 under SPOOK and Baumgarte
 *                instead of the projection (ms/step, worst separation, or the step it diverged at)
 *   contact      the sphere pile against Rapier and MuJoCo, pivoting's scaling, chain100 with limits
 *                (bench/spherepile.ts)
 *   boxpile      the pile of 1000 boxes against Rapier, MuJoCo and Jolt, Vinculum's heap over it, and
 *                the scaling to 4000 and 16 000 boxes (bench/boxpile.ts)
 *   viewer       the web viewer in headless Chromium on chain100 and the contact scenes: frame
 *                intervals, drawing time, the worker's ms/step and simulated/wall time (bench/viewer.ts)
 *   heap         heap growth over 10,000 steady steps (run with --expose-gc), and the transient
 *                allocation per step of every integrator (heap use after 1000 steps, no GC between)
 *
 * Results go to bench/results/core-<date>.json (written atomically) and are summarised by hand
 * in docs/benchmarks.md. `npm run bench -- --quick` runs smaller sizes and single runs, to check
 * the script (results in core-<date>-quick.json; not for the docs).
 */
import { contactBenchmarks } from './spherepile.js';
import { boxpileBenchmarks } from './boxpile.js';
import { viewerBenchmarks } from './viewer.js';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { clothModel, chainOfBodies } from '../examples/scenes.js';
import { Simulation } from '../src/simulation.js';
import { DivergenceError } from '../src/model/errors.js';
import { ModelAssembler } from '../src/model/assembler.js';
import { Workspace } from '../src/step/workspace.js';
import { LdltSymbolic, LdltNumeric } from '../src/math/sparse/ldlt.js';
import { SupernodalSymbolic, SupernodalLdlt } from '../src/math/sparse/supernodal.js';
import { cscSymmetrizeValues, cscTransposeMap } from '../src/math/sparse/csc.js';
import { execFileSync } from 'node:child_process';
import type { PeerChain100 } from './peers.js';
import { median, fitExponent } from './stats.js';
import { writeTextFileAtomic } from '../node/files.js';

/** two spinning boxes with offset centres of mass coupled by a frame spring, under gravity (like the frame-spring-pair example, not the same) */
function spinningPair() {
  const b = new ModelAssembler();
  b.settings.gravity = [0, 0, -9.81];
  b.addBody({ name: 'A', mass: 1, inertia: [0.002, 0.004, 0.005, 0, 0, 0], com: [0.01, 0, 0], position: [-0.1, 0, 0], angularVelocity: [0.5, 1, 3] });
  b.addBody({ name: 'B', mass: 1, inertia: [0.002, 0.004, 0.005, 0, 0, 0], position: [0.1, 0, 0] });
  b.addFrameSpring('bushing', 'A', 'B', [0, 0, 0], [1, 0, 0, 0], { translationalStiffness: 2000, rotationalStiffness: 5, translationalDamping: 0.5, rotationalDamping: 0.002 });
  return b.build();
}

const log = (s: string) => process.stdout.write(s + '\n');

/**
 * ms per implicit-Euler step of an N×N cloth (median of `reps` timed steps after warm-up), at
 * h = 0.1/N s: the springs keep their stiffness while the particles' mass falls as 1/N², so the
 * highest frequency grows as N and h·ω_max stays the same (at h = 10 ms the 50×50 cloth's step
 * matrix loses its definiteness at step 12, and the step fails)
 */
function clothStep(n: number, reps: number): { n: number; particles: number; dof: number; msPerStep: number; nnzL: number } {
  const sim = new Simulation(clothModel({ n, stiffness: 5000 }), { integrator: 'implicit-euler', step: 0.1 / n });
  sim.steps(3);
  const times: number[] = [];
  for (let i = 0; i < reps; i++) { const t0 = performance.now(); sim.step(); times.push(performance.now() - t0); }
  return { n, particles: n * n, dof: sim.model.dof, msPerStep: median(times), nnzL: sim.ws.solver.analysis?.nnzL ?? 0 };
}

/** numeric factorization time of the cloth's step matrix with a given ordering */
function ldltFactor(n: number, ordering: 'amd' | 'natural', reps: number): { ordering: string; nnzL: number; msFactor: number; msFactorSupernodal: number; msFactorSupernodalJs: number; msSymbolic: number } {
  const model = clothModel({ n, stiffness: 5000 });
  const ws = new Workspace(model);
  const q = model.initialQ.slice(), u = model.initialU.slice();
  // a sagging configuration so every spring is stretched
  for (let i = 2; i < q.length; i += 3) q[i] = -0.05 * Math.sin(i);
  ws.mass(q); ws.fs.forces(q, u); ws.fs.jacobians(q, u);
  const h = 0.01, L = ws.fs.layout, A = new Float64Array(L.nnz);
  A.set(ws.stepMatrix(h, h * h));
  const csc = { n: L.n, colPtr: L.colPtr, rowIdx: L.rowIdx, values: A };
  const S = new Float64Array(L.nnz);
  cscSymmetrizeValues(S, csc, cscTransposeMap(csc));
  const t0 = performance.now();
  const sym = new LdltSymbolic(L.n, L.colPtr, L.rowIdx, { ordering });
  const msSymbolic = performance.now() - t0;
  // the scalar factor, the supernodal one as the step solver runs it (WebAssembly) and in JavaScript
  const ssym = new SupernodalSymbolic(sym), num = new LdltNumeric(sym), sn = new SupernodalLdlt(ssym), snJs = new SupernodalLdlt(ssym, { wasm: false });
  const time = (f: () => unknown) => { const t: number[] = []; for (let i = 0; i < reps; i++) { const t1 = performance.now(); f(); t.push(performance.now() - t1); } return median(t); };
  return { ordering, nnzL: sym.nnzL, msFactor: time(() => num.factor(S)), msFactorSupernodal: time(() => sn.factor(S)), msFactorSupernodalJs: time(() => snJs.factor(S)), msSymbolic };
}

/** heap growth over steady stepping (after 200 steps), with a full GC before and after when available */
function heap(sim: Simulation, steps: number): { steps: number; gcAvailable: boolean; heapBeforeMB: number; heapAfterMB: number; growthKB: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  sim.steps(200);
  gc?.(); gc?.();
  const before = process.memoryUsage().heapUsed;
  sim.steps(steps);
  gc?.(); gc?.();
  const after = process.memoryUsage().heapUsed;
  return { steps, gcAvailable: !!gc, heapBeforeMB: before / 2 ** 20, heapAfterMB: after / 2 ** 20, growthKB: (after - before) / 1024 };
}

/** bytes allocated per step (heap use growth over `steps` steps right after a full GC) */
function allocationPerStep(make: () => Simulation, steps: number): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  const sim = make();
  sim.steps(200);
  gc?.(); gc?.();
  const before = process.memoryUsage().heapUsed;
  sim.steps(steps);
  return (process.memoryUsage().heapUsed - before) / steps;
}

/**
 * chain100: median ms/step over `runs` runs of 1000 steps after one untimed warm-up
 * run (the peers' protocol, bench/peers.ts), the worst joint separation (the largest end-of-step
 * |g| of any timed run, `diagnostics.worstViolation`), energy change
 */
function chain100(integrator: 'implicit-euler' | 'trapezoidal', runs: number) {
  const times: number[] = [];
  let worst = 0, dE = 0;
  new Simulation(chainOfBodies(100, { integrator })).steps(1000);
  for (let r = 0; r < runs; r++) {
    const sim = new Simulation(chainOfBodies(100, { integrator }));
    const E0 = sim.energy().total;
    const t0 = performance.now();
    sim.steps(1000);
    times.push((performance.now() - t0) / 1000);
    worst = Math.max(worst, sim.diagnostics.worstViolation.value);
    dE = sim.energy().total - E0;
  }
  return { integrator, msPerStep: median(times), maxJointSeparation: worst, energyChange: dE };
}

/**
 * chain100 (implicit Euler) with another stabilization than the default projection: median
 * ms/step of the steps run, the worst end-of-step joint separation, and the step of a divergence
 */
function chain100Stabilized(method: 'spook' | 'baumgarte') {
  const sim = new Simulation(chainOfBodies(100, { integrator: 'implicit-euler', stabilization: { method } })), times: number[] = [];
  let divergedAt: number | null = null;
  for (let i = 0; i < 1000; i++) {
    const t = performance.now();
    try { sim.step(); } catch (e) { if (e instanceof DivergenceError) { divergedAt = e.step; break; } throw e; }
    times.push(performance.now() - t);
  }
  const w = sim.diagnostics.worstViolation;
  return { method, msPerStep: median(times), worstSeparation: w.value, worstAtStep: w.step, divergedAt };
}

/**
 * ms/step of an n-link ball-joint chain: the median of steps 30 … 30 + steps of `repeats` fresh
 * simulations, all pooled (the first steps of a fresh simulation run slower while V8 specializes
 * its code, which made the 100-link median 1.24 against 0.86 ms over a whole run). One window of
 * 20 steps of the 100-link chain (8 ms of timing) was not enough: in the same process it gave
 * 0.39 to 0.66 ms, so the short chains are measured over several simulations.
 */
function chainScaling(n: number, steps: number, repeats: number): { links: number; msPerStep: number; steps: number } {
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const sim = new Simulation(chainOfBodies(n, { integrator: 'implicit-euler' }));
    sim.steps(30);
    for (let i = 0; i < steps; i++) { const t = performance.now(); sim.step(); times.push(performance.now() - t); }
  }
  return { links: n, msPerStep: median(times), steps: times.length };
}

/**
 * chain100 in the peer engines (bench/peers.ts), in a process of their own: in this one, Rapier's
 * worlds make vinculum's later measurements slower (chain100's steps by 12-18%, the 10 000-link
 * chain's by about 5%)
 */
function peerChain100InChild(runs: number): PeerChain100[] {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'peers.js');
  return JSON.parse(execFileSync(process.execPath, [script, String(runs)], { encoding: 'utf8' })) as PeerChain100[];
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  // chain100 and chain scaling
  const chains = (['trapezoidal', 'implicit-euler'] as const).map((integ) => {
    const r = chain100(integ, quick ? 1 : 5);
    log(`chain100 ${integ}: ${r.msPerStep.toFixed(3)} ms/step (median), max joint separation ${r.maxJointSeparation.toExponential(2)} m, energy change ${r.energyChange.toFixed(3)} J`);
    return r;
  });
  // the same scene in the peer engines, in this run: ratios against vinculum's implicit Euler
  const peers = peerChain100InChild(quick ? 1 : 5);
  const ours = chains.find((c) => c.integrator === 'implicit-euler')!.msPerStep;
  for (const p of peers) log(`chain100 ${p.engine} ${p.version}: ${p.msPerStep.toFixed(3)} ms/step (median), max joint separation ${p.maxJointSeparation.toExponential(2)} m; vinculum implicit Euler / ${p.engine} = ${(ours / p.msPerStep).toFixed(2)}× the time`);
  const stabilized = (['spook', 'baumgarte'] as const).map((method) => {
    const r = chain100Stabilized(method);
    log(`chain100 implicit Euler with ${method}: ${r.msPerStep.toFixed(3)} ms/step (median), worst joint separation ${r.worstSeparation.toExponential(2)} m after step ${r.worstAtStep}${r.divergedAt === null ? '' : `, diverged at step ${r.divergedAt}`}`);
    return r;
  });
  const scaling = (quick ? [100, 1000] : [100, 1000, 10000]).map((n) => {
    const r = chainScaling(n, n >= 10000 ? 5 : 20, quick ? 1 : n >= 10000 ? 2 : n >= 1000 ? 5 : 25);
    log(`chain of ${n} links: ${r.msPerStep.toFixed(3)} ms/step (median of ${r.steps} steps)`);
    return r;
  });
  const chainExponent = fitExponent(scaling.map((c) => c.links), scaling.map((c) => c.msPerStep));
  log(`chain scaling exponent in links: ${chainExponent.toFixed(3)}`);
  const chainHeap = heap(new Simulation(chainOfBodies(100, { integrator: 'implicit-euler' })), quick ? 500 : 5000);
  log(`chain100 heap over ${chainHeap.steps} steps: ${chainHeap.growthKB.toFixed(1)} KB growth`);
  const sizes = quick ? [10, 20] : [10, 20, 50, 100];
  log(`vinculum core benchmarks (${new Date().toISOString()}, node ${process.version})`);
  const cloth = sizes.map((n) => {
    const r = clothStep(n, n >= 100 ? 5 : n >= 50 ? 10 : 30);
    log(`cloth ${n}×${n}: ${r.dof} DOF, ${r.msPerStep.toFixed(3)} ms/step (median), nnz(L) ${r.nnzL}`);
    return r;
  });
  const exponent = fitExponent(cloth.map((c) => c.particles), cloth.map((c) => c.msPerStep));
  log(`cloth scaling exponent in particles: ${exponent.toFixed(3)}`);
  const nL = quick ? 20 : 50;
  const ldlt = (['amd', 'natural'] as const).map((o) => {
    const r = ldltFactor(nL, o, 5);
    log(`ldlt cloth ${nL}×${nL} ${o}: nnz(L) ${r.nnzL}, numeric factor ${r.msFactor.toFixed(2)} ms scalar, ${r.msFactorSupernodal.toFixed(2)} ms supernodal (WebAssembly), ${r.msFactorSupernodalJs.toFixed(2)} ms supernodal in JavaScript (medians), symbolic ${r.msSymbolic.toFixed(1)} ms`);
    return r;
  });
  const hp = heap(new Simulation(clothModel({ n: 10, stiffness: 5000 }), { integrator: 'implicit-euler', step: 0.01 }), quick ? 1000 : 10000);
  log(`heap over ${hp.steps} steps: ${hp.growthKB.toFixed(1)} KB growth (${hp.heapBeforeMB.toFixed(2)} → ${hp.heapAfterMB.toFixed(2)} MB)${hp.gcAvailable ? '' : ' [no --expose-gc: noisy]'}`);
  const integrators = ['symplectic-euler', 'implicit-euler', 'trapezoidal', 'bridson-marino', 'rk4'] as const;
  const alloc = integrators.map((integrator) => {
    const cloth = allocationPerStep(() => new Simulation(clothModel({ n: 10, stiffness: 5000 }), { integrator, step: 0.001 }), 1000);
    const body = allocationPerStep(() => new Simulation(spinningPair(), { integrator, step: 0.002 }), 1000);
    log(`allocation per step, ${integrator}: cloth ${cloth.toFixed(0)} B, spinning bodies + frame spring ${body.toFixed(0)} B`);
    return { integrator, clothBytesPerStep: cloth, bodiesBytesPerStep: body };
  });
  // contact: the sphere pile against Rapier and MuJoCo, pivoting's scaling, chain100 with limits
  const contact = contactBenchmarks({ quick, runs: quick ? 1 : 3, maxSeconds: 60,
    chain: { joint: 'gimbal', coordinates: ['theta', 'phi', 'psi'], solver: 'pivoting' }, log });
  // collision: the pile of 1000 boxes against Rapier, MuJoCo and Jolt, its heap, and its scaling to 16 000 boxes
  const boxpile = boxpileBenchmarks({ quick, log });
  // the viewer in headless Chromium: frame time and simulation time on chain100 and the contact scenes
  const viewer = await viewerBenchmarks({ quick, log });
  // write results atomically
  const here = dirname(fileURLToPath(import.meta.url));
  const dir = join(here, '..', '..', 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `core-${new Date().toISOString().slice(0, 10)}${quick ? '-quick' : ''}.json`);
  const body = JSON.stringify({ date: new Date().toISOString(), node: process.version, cloth, clothExponent: exponent, ldlt: { n: nL, runs: ldlt }, heap: hp, allocation: alloc, chain100: chains, chain100Peers: peers, chain100Stabilized: stabilized, chainScaling: scaling, chainExponent, chainHeap, contact, boxpile, viewer }, null, 2) + '\n';
  await writeTextFileAtomic(file, body);
  log(`results: ${file}`);
}

main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
