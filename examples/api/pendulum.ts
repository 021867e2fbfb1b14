/**
 * A pendulum in ten lines: a steel ball on a massless rod (a distance joint to a world point),
 * released from 10°, compared with the small-angle period 2π√(L/g).
 * Run: `npm run build && node dist/examples/api/pendulum.js`.
 */
import { ModelBuilder, Simulation } from 'vinculum';

export function main(log: (line: string) => void = console.log): { period: number; exact: number } {
  const L = 1, g = 9.81, a = (10 * Math.PI) / 180;
  const model = new ModelBuilder({ gravity: [0, 0, -g], integrator: 'trapezoidal', step: 0.001 })
    .addParticle({ name: 'bob', mass: 1, position: [L * Math.sin(a), 0, -L * Math.cos(a)] })
    .addJoint({ type: 'distance', name: 'rod', points: [['world', [0, 0, 0]], 'bob'] })
    .build();
  const sim = new Simulation(model), bob = sim.particle('bob');
  // time the swings through x = 0: two crossings apart by half a period
  const crossings: number[] = [];
  let x = bob.position[0];
  while (crossings.length < 3) {
    sim.step();
    const next = bob.position[0];
    if (x > 0 !== next > 0) crossings.push(sim.time - sim.h * (next / (next - x)));
    x = next;
  }
  const period = crossings[2]! - crossings[0]!, exact = 2 * Math.PI * Math.sqrt(L / g) * (1 + a * a / 16);
  log(`period ${period.toFixed(4)} s; 2π√(L/g)(1 + θ₀²/16) = ${exact.toFixed(4)} s`);
  log(`rod tension at the bottom of the swing: ${Math.hypot(...sim.joint('rod').reaction.force).toFixed(3)} N`);
  return { period, exact };
}

if (process.argv[1]?.endsWith('pendulum.js')) main();
