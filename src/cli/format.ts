/**
 * @module cli/format
 * Output helpers: JSON, aligned tables, colours only on a terminal.
 */
import pc from 'picocolors';
import { createError } from '../core/errors.js';
import { isStrictDate, STRICT_DATE_EXPECTED } from '../core/dates.js';
import { readSettings } from '../core/env.js';
import type { CliIO } from './context.js';

/** Prints `value` as one JSON document followed by a newline. */
export function printJson(io: CliIO, value: unknown): void {
  io.stdout(JSON.stringify(value, null, 2) + '\n');
}

/** Colour functions that are no-ops when stdout is not a terminal. */
export function colors(io: CliIO) {
  const on = io.isTTY && !readSettings(io.env).noColor;
  const id = (s: string) => s;
  return {
    bold: on ? pc.bold : id,
    dim: on ? pc.dim : id,
    cyan: on ? pc.cyan : id,
    green: on ? pc.green : id,
    yellow: on ? pc.yellow : id,
    red: on ? pc.red : id,
    magenta: on ? pc.magenta : id,
    inverse: on ? pc.inverse : id,
  };
}

/** Renders rows as left-aligned columns separated by two spaces. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}

/** Formats a byte count (1.2 MB). */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const u = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < u.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${u[i]}`;
}

/** Parses an integer option in [min, max] or throws INVALID_ARGUMENT. */
export function intOption(name: string, raw: string | undefined, def: number, min = 1, max = 1_000_000): number {
  if (raw === undefined) return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw createError('INVALID_ARGUMENT', { name, value: raw, expected: `an integer from ${min} to ${max}` });
  }
  return n;
}

/** Checks a date option strictly (a real calendar day, see `isStrictDate`) or throws INVALID_ARGUMENT. */
export function dateOption(name: string, raw: string | undefined): string | undefined {
  if (raw !== undefined && !isStrictDate(raw))
    throw createError('INVALID_ARGUMENT', { name, value: raw, expected: STRICT_DATE_EXPECTED });
  return raw;
}
