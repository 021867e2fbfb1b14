/**
 * A controller loop: a PID controller holds a hinged arm at 45° against gravity by applying a
 * torque at each step, read from the joint's angle and rate. The loop is the user's: read, compute,
 * apply, step. At rest the torque balances the arm's weight, m g (L/2) cos 45°.
 * Run: `npm run build && node dist/examples/api/controller.js`.
 */
import { ModelBuilder, Simulation } from 'vinculum';

export function main(log: (line: string) => void = console.log): { angle: number; torque: number; gravityTorque: number } {
  const L = 0.5, g = 9.81, target = Math.PI / 4, kp = 200, kd = 20, ki = 400;
  const model = new ModelBuilder({ gravity: [0, 0, -g], integrator: 'implicit-euler', step: 0.002 })
    .addBody({ name: 'arm', shape: { type: 'box', size: [L, 0.04, 0.04] }, density: 1000, position: [L / 2, 0, 0] })
    .addJoint({ type: 'hinge', name: 'shoulder', bodyA: 'world', bodyB: 'arm', position: [0, 0, 0], axis: [0, -1, 0] })
    .build();
  const sim = new Simulation(model), arm = sim.body('arm'), shoulder = sim.joint('shoulder');
  let integral = 0, torque = 0;
  // the joint axis is −y: a positive angle raises the arm, and a torque about −y drives it
  while (sim.time < 5) {
    const [angle] = shoulder.coordinates, [rate] = shoulder.rates;
    const error = target - angle!;
    integral += error * sim.h;
    torque = kp * error - kd * rate! + ki * integral;
    arm.clearLoads().applyTorque([0, -torque, 0]);
    sim.step();
  }
  const angle = shoulder.coordinates[0]!, gravityTorque = arm.mass * g * (L / 2) * Math.cos(angle);
  log(`angle ${((angle * 180) / Math.PI).toFixed(3)}° (target 45°), torque ${torque.toFixed(4)} N·m, m g (L/2) cos θ = ${gravityTorque.toFixed(4)} N·m`);
  return { angle, torque, gravityTorque };
}

if (process.argv[1]?.endsWith('controller.js')) main();
