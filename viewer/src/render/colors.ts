/**
 * The viewer's colours. Each dynamic component gets its own saturated hue (hues stepped by the
 * golden angle, so neighbours in model order differ); shapeless particles share one blue; the
 * world is grey, fixed and kinematic components a darker slate. The tests look for these colours
 * in the drawn pixels, so they are exported as 0–255 sRGB triples.
 */
import { Color, SRGBColorSpace } from 'three';

/** the page behind the scene */
export const BACKGROUND: [number, number, number] = [238, 241, 245];
/** world shapes (planes, height fields, world meshes) */
export const WORLD_GREY: [number, number, number] = [176, 180, 186];
/** components that do not move under forces (fixed or kinematic) */
export const FIXED_SLATE: [number, number, number] = [96, 104, 118];
/** particles without a shape (all alike) */
export const PARTICLE: [number, number, number] = [40, 90, 200];
/** contact normal forces, friction forces and contact points */
export const NORMAL_FORCE: [number, number, number] = [20, 150, 60];
export const FRICTION_FORCE: [number, number, number] = [210, 40, 170];
/** joint markers and axes */
export const JOINT: [number, number, number] = [30, 30, 30];

/** the golden angle as a fraction of a turn */
const GOLDEN = 0.381966011250105;

/** the colour of dynamic component `component` (0–255 sRGB): hue by the golden angle, saturated */
export function bodyColor(component: number): [number, number, number] {
  const hue = (0.02 + component * GOLDEN) % 1;
  const c = new Color().setHSL(hue, 0.8, 0.5, SRGBColorSpace);
  const rgb = c.getRGB({ r: 0, g: 0, b: 0 }, SRGBColorSpace);
  return [Math.round(rgb.r * 255), Math.round(rgb.g * 255), Math.round(rgb.b * 255)];
}

/** a three.js colour from a 0–255 sRGB triple */
export function color3(rgb: readonly [number, number, number]): Color {
  return new Color().setRGB(rgb[0] / 255, rgb[1] / 255, rgb[2] / 255, SRGBColorSpace);
}

/**
 * A line's colour for tension t relative to the largest seen, r = t / max|t| in [−1, 1]: slack or
 * pushing (r ≤ 0) blue, rising through purple to red at the largest tension; written into `out`
 */
export function tensionColor(out: Color, r: number): Color {
  const s = Math.max(0, Math.min(1, r));
  return out.setHSL(0.62 * (1 - s), 0.85, 0.5, SRGBColorSpace);
}
