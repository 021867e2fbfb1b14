/**
 * `--outputs` of `vinculum run`: the parser and the help text. The columns themselves are read by
 * the core's `outputColumns` (src/api/outputs.ts), which the viewer's plots share.
 */
import { InvalidArgumentError } from 'commander';
import { OUTPUT_GROUPS, type OutputGroup } from '../src/api/outputs.js';

export { OUTPUT_GROUPS, outputColumns, type OutputColumns, type OutputGroup } from '../src/api/outputs.js';

/** `--outputs` parser: a comma list of groups, or `all`; throws InvalidArgumentError (exit 2) */
export function parseOutputs(s: string): OutputGroup[] {
  const chosen = new Set<string>();
  for (const part of s.split(',').map((x) => x.trim())) {
    if (part === 'all') for (const g of OUTPUT_GROUPS) chosen.add(g);
    else if ((OUTPUT_GROUPS as readonly string[]).includes(part)) chosen.add(part);
    else {
      const known = `${OUTPUT_GROUPS.join(', ')}, or all`;
      throw new InvalidArgumentError(`unknown output ${JSON.stringify(part)}; use a comma list of ${known}.`);
    }
  }
  return OUTPUT_GROUPS.filter((g) => chosen.has(g));
}

/** the groups of `--outputs` and their columns, for `vinculum run --help` (docs/cli.md has the details) */
export const OUTPUTS_HELP = `
Output groups of --outputs (with --out), their columns after the positions in this order;
world axes, SI units (docs/cli.md):
  velocities  <particle>.vx,vy,vz; <body>.vx,vy,vz (its frame origin) and <body>.wx,wy,wz
  markers     <marker>.x,y,z: the marker's world position
  joints      <joint>.<coordinate> for each coordinate of each joint (m or rad),
              then <joint>.<coordinate>_rate for each (m/s or rad/s)
  forces      <joint>.fx,fy,fz: the constraint force on side A (N);
              <joint>.mx,my,mz: the torque on side A about the joint anchor (N·m)
  springs     <spring>.length,rate,tension (m, m/s, N); with via points also
              <spring>.segment0 … (each segment's length, m);
              <frame-spring>.fx,fy,fz,mx,my,mz: the force on body B (N) and the torque
              on B about the spring frame's origin as attached to B (N·m)
  energy      energy.kinetic, energy.potential, energy.total (J)
  contacts    contacts.active: the last step's contacts with a normal force above 0;
              contacts.residual: its complementarity residual (relative, 0 without
              contact, limit or motor rows); JSONL rows also get a "contacts" array of
              {shapeA, shapeB, featureA, featureB, point, normal, gap, normalForce,
              frictionForce} (m, N)
  all         every group
`;

