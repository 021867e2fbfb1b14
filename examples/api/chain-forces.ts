/**
 * A chain of ten links hung from a ball joint and left to swing, reading the force in each joint.
 * At rest, each joint carries the weight of the links below it: the example lets the chain settle
 * under damping and prints the joint forces against that weight.
 * Run: `npm run build && node dist/examples/api/chain-forces.js`.
 */
import { ModelBuilder, Simulation } from 'vinculum';

export function main(log: (line: string) => void = console.log): { force: number[]; weight: number[] } {
  const n = 10, link = 0.1, g = 9.81;
  const b = new ModelBuilder({ gravity: [0, 0, -g], integrator: 'implicit-euler', step: 0.005 });
  for (let i = 0; i < n; i++) {
    // links along x, released horizontal: the chain swings down and settles
    b.addBody({
      name: `link${i}`, shape: { type: 'capsule', radius: 0.01, length: link - 0.02 }, density: 2700,
      position: [(i + 0.5) * link, 0, 0], orientation: [Math.SQRT1_2, 0, Math.SQRT1_2, 0], angularDamping: 0.02,
    });
    b.addJoint({ type: 'ball', name: `j${i}`, bodyA: i === 0 ? 'world' : `link${i - 1}`, bodyB: `link${i}`, position: [i * link, 0, 0] });
  }
  const sim = new Simulation(b.build());
  sim.run(20);
  const mass = sim.body('link0').mass;
  // joint i holds links i … n−1; its reaction on side A (the link above) pulls it down
  const force = Array.from({ length: n }, (_, i) => -sim.joint(`j${i}`).reaction.force[2]);
  const weight = Array.from({ length: n }, (_, i) => (n - i) * mass * g);
  for (let i = 0; i < n; i++) log(`joint j${i}: ${force[i]!.toFixed(4)} N (weight below: ${weight[i]!.toFixed(4)} N)`);
  return { force, weight };
}

if (process.argv[1]?.endsWith('chain-forces.js')) main();
