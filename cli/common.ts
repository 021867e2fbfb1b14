/**
 * What the command line's modules share: the error that carries an exit code, number
 * formatting, and the option parsers (each throws commander's InvalidArgumentError, which
 * commander reports on one line with the option's name).
 */
import { InvalidArgumentError } from 'commander';

/** an error with its exit code (2 bad input, 3 divergence or instability) and a one-line message */
export class CliError extends Error {
  constructor(readonly exitCode: number, message: string) { super(message); }
}

/** 6 significant digits, without trailing zeros; integers below 1e15 as they are */
export const fmt = (v: number): string =>
  (Number.isInteger(v) && Math.abs(v) < 1e15 ? String(v) : String(Number(v.toPrecision(6))));

/** the message of a thrown value */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** `--duration`, `--step`: a finite number above 0 */
export function positiveNumber(s: string): number {
  const v = Number(s);
  if (s.trim() === '' || !Number.isFinite(v) || !(v > 0)) {
    throw new InvalidArgumentError('expected a positive number.');
  }
  return v;
}

/** `--every`: digits only, at least 1 */
export function positiveInteger(s: string): number {
  const v = Number(s);
  if (!/^\s*\d+\s*$/.test(s) || !Number.isSafeInteger(v) || v < 1) {
    throw new InvalidArgumentError('expected a positive integer.');
  }
  return v;
}

/** `--max-steps`: a whole number at least 1, digits or exponent notation (`1e9`) */
export function stepCap(s: string): number {
  const v = Number(s);
  if (s.trim() === '' || !Number.isSafeInteger(v) || v < 1) {
    throw new InvalidArgumentError('expected a whole number of steps, at least 1 (such as 1e9).');
  }
  return v;
}

/** `--out`: a .csv or .jsonl path */
export function outputFile(s: string): string {
  if (!/\.(csv|jsonl)$/i.test(s)) {
    throw new InvalidArgumentError('unknown output extension; use .csv or .jsonl.');
  }
  return s;
}

/** `--report`: an .html (or .htm) file name */
export function reportFile(s: string): string {
  if (!/\.html?$/i.test(s)) throw new InvalidArgumentError('a report is an HTML file; use a name ending in .html.');
  return s;
}

/** `--port`: an integer from 0 (any free port) to 65535 */
export function portNumber(s: string): number {
  const v = Number(s);
  if (s.trim() === '' || !Number.isInteger(v) || v < 0 || v > 65535) {
    throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  }
  return v;
}
