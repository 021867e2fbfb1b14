/** the integrators of 000 §0.9, plus explicit RK4 as an accuracy reference */
export const INTEGRATORS = ['symplectic-euler', 'implicit-euler', 'trapezoidal', 'bridson-marino', 'rk4'] as const;
export type IntegratorName = (typeof INTEGRATORS)[number];

export function isIntegratorName(s: string): s is IntegratorName {
  return (INTEGRATORS as readonly string[]).includes(s);
}
