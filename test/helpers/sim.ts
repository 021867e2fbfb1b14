/** shared simulation measurements for tests */
import type { Simulation } from '../../src/simulation.js';

/** mean period of a signal from its upward zero crossings (linear interpolation) over `steps` steps */
export function period(sim: Simulation, signal: (s: Simulation) => number, steps: number): number {
  const crossings: number[] = [];
  let prev = signal(sim), tPrev = sim.state.t;
  sim.steps(steps, (s) => {
    const v = signal(s), t = s.state.t;
    if (prev < 0 && v >= 0) crossings.push(tPrev + (t - tPrev) * (-prev / (v - prev)));
    prev = v; tPrev = t;
  });
  return (crossings[crossings.length - 1]! - crossings[0]!) / (crossings.length - 1);
}
