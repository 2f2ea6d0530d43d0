/**
 * @module cli/argv
 * A small argument parser for the hot commands (`loci search`), so that they start without loading
 * commander (about a fifth of a `loci search` start). It reads only the plain forms — global
 * `--home DIR` before the command, `--long value`, `--long=value`, `-s value`, boolean flags and
 * positional words — and gives up (returns undefined) on anything else: help, `--`, unknown or
 * combined options, a missing value or argument. The caller then runs commander, which parses the
 * same argv from scratch, so every case this parser declines behaves exactly as before.
 */

/** One option of a command, declared once for commander and for {@link parseDirect}. */
export interface OptionSpec {
  /** Commander's flags, e.g. `-w, --wing <wing>` or `--json`. */
  flags: string;
  description: string;
}

/** What {@link parseDirect} read: the global options, the positional words and the command's options. */
interface DirectArgs {
  home?: string;
  args: string[];
  /** By commander's key (`--dry-run` → `dryRun`): a string for a value option, `true` for a flag. */
  opts: Record<string, string | true>;
}

interface ParsedFlag {
  key: string;
  takesValue: boolean;
}

const camel = (long: string) => long.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/** `-w, --wing <wing>` → the names it answers to and how it is stored; undefined for other shapes. */
function readFlags(flags: string): { names: string[]; flag: ParsedFlag } | undefined {
  const m = /^(?:(-[A-Za-z]),\s*)?(--[a-z][a-z-]*)(?:\s+<[^>]+>)?$/.exec(flags.trim());
  if (!m) return undefined;
  return {
    names: m[1] ? [m[1], m[2]!] : [m[2]!],
    flag: { key: camel(m[2]!.slice(2)), takesValue: flags.includes('<') },
  };
}

/**
 * Parses `argv` (without `node` and the script) for the command `name` whose options are `options`
 * and which takes from one to `maxArgs` positional words (none when `maxArgs` is 0); undefined when the argv is
 * not in the plain forms.
 */
export function parseDirect(
  argv: readonly string[],
  name: string,
  options: readonly OptionSpec[],
  maxArgs = Infinity,
): DirectArgs | undefined {
  const known = new Map<string, ParsedFlag>();
  for (const o of options) {
    const r = readFlags(o.flags);
    if (!r) return undefined;
    for (const n of r.names) known.set(n, r.flag);
  }
  let i = 0;
  let home: string | undefined;
  for (; i < argv.length && argv[i] !== name; i++) {
    const a = argv[i]!;
    if (a === '--home' && i + 1 < argv.length) home = argv[++i];
    else if (a.startsWith('--home=')) home = a.slice('--home='.length);
    else return undefined;
  }
  if (i >= argv.length) return undefined;
  const args: string[] = [];
  const opts: Record<string, string | true> = {};
  for (i++; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-') || a === '-') {
      args.push(a);
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const flag = known.get(eq > 0 ? a.slice(0, eq) : a);
    if (!flag) return undefined;
    if (!flag.takesValue) {
      if (eq > 0) return undefined;
      opts[flag.key] = true;
    } else if (eq > 0) opts[flag.key] = a.slice(eq + 1);
    else if (i + 1 < argv.length) opts[flag.key] = argv[++i]!;
    else return undefined;
  }
  // A command with positional words needs one (`loci search` alone is commander's error); `maxArgs` 0 takes none.
  if ((args.length === 0 && maxArgs > 0) || args.length > maxArgs) return undefined;
  return { ...(home !== undefined ? { home } : {}), args, opts };
}
