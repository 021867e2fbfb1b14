/**
 * Warnings a simulation raises: what they are about, and the listeners that hear them. A
 * warning is raised once per cause (the first redundant set, the first projection that stopped
 * above its tolerance, …); later occurrences are counted in `Simulation.diagnostics`.
 */

/**
 * What a warning is about:
 * - `initial-violation`: a hard constraint does not hold in the initial state;
 * - `ignored-damping`: damping on a hard row that the stabilization ignores;
 * - `redundancy`: redundant constraints, regularized;
 * - `singularity`: a joint at a singularity of its coordinates;
 * - `projection`: a projection stopped above its tolerance;
 * - `geometric-stiffness`: a step taken without the geometric stiffness;
 * - `fast-turn`: a body turns faster than the step resolves;
 * - `indefinite`: a non-symmetric step matrix whose symmetric part is not positive definite,
 *   solved all the same (a symmetric one fails the step);
 * - `stability-limit`: the step exceeds an explicit integrator's stability limit;
 * - `instability`: the energy grows beyond what the loads can supply.
 */
export type WarningKind =
  | 'initial-violation' | 'ignored-damping' | 'redundancy' | 'singularity' | 'projection'
  | 'geometric-stiffness' | 'fast-turn' | 'indefinite' | 'stability-limit' | 'instability';

/** one warning, as `Simulation.on('warning', …)` hears it */
export interface SimulationWarning {
  /** what it is about */
  readonly kind: WarningKind;
  /** one line, as the command line prints it */
  readonly message: string;
  /** the steps completed when it was raised (0 before the first step) */
  readonly step: number;
  /** the simulated time then, s */
  readonly time: number;
}

/** a function that hears warnings */
export type WarningListener = (warning: SimulationWarning) => void;

/** the warnings raised so far and their listeners */
export class WarningLog {
  /** every warning raised so far, in order */
  readonly list: SimulationWarning[] = [];
  private readonly listeners: WarningListener[] = [];

  /** records a warning and tells every listener, in the order they were added */
  raise(w: SimulationWarning): void {
    this.list.push(w);
    for (const l of this.listeners.slice()) l(w);
  }

  add(listener: WarningListener): void { this.listeners.push(listener); }

  remove(listener: WarningListener): void {
    const i = this.listeners.indexOf(listener);
    if (i >= 0) this.listeners.splice(i, 1);
  }
}
