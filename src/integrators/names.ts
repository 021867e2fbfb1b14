/** the integrators of theory.md §5, plus explicit RK4 as an accuracy reference */
export const INTEGRATORS = ['symplectic-euler', 'implicit-euler', 'trapezoidal', 'bridson-marino', 'rk4'] as const;
/** the name of a time integrator (docs/integrators.md) */
export type IntegratorName = (typeof INTEGRATORS)[number];

/** true when s names an integrator */
export function isIntegratorName(s: string): s is IntegratorName {
  return (INTEGRATORS as readonly string[]).includes(s);
}
