/**
 * @module test/helpers/locomo
 * Where the LoCoMo development set is (read in place, never copied into the repository):
 * `LOCI_LOCOMO_DATA`, else `../shared/data/locomo/locomo-dev.json` beside the checkout, else
 * `/work/shared/…`. Tests that need it skip with the path they looked at when it is absent.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CANDIDATES = [
  process.env['LOCI_LOCOMO_DATA'],
  join(ROOT, '..', 'shared', 'data', 'locomo', 'locomo-dev.json'),
  '/work/shared/data/locomo/locomo-dev.json',
];

/** The path of the LoCoMo development set (the first candidate when none exists). */
export const LOCOMO_DEV: string = CANDIDATES.find((p): p is string => !!p && existsSync(p)) ?? CANDIDATES[1]!;

/** `false` when the file exists, else the skip reason. */
export const LOCOMO_SKIP: string | false = existsSync(LOCOMO_DEV)
  ? false
  : `LoCoMo development set not found at ${LOCOMO_DEV} (set LOCI_LOCOMO_DATA)`;
