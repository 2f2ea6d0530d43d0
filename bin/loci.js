#!/usr/bin/env node
// The bin only loads compiled code: the bundles of `dist/bundle/` when the build made them (one
// file and a few chunks instead of ~100 modules: scripts/build-bundles.mjs), else the tsc output.
// `loci hook <event>` goes straight to the hooks' light entry point (a few small modules instead of
// the whole CLI): Claude Code runs it on every prompt. `loci --version` prints the version without
// loading the CLI.
import { statSync } from 'node:fs';

const args = process.argv.slice(2);
const home = args[0] === '--home' ? args.slice(0, 2) : args[0]?.startsWith('--home=') ? args.slice(0, 1) : [];
const rest = args.slice(home.length);
// The bundles only when built after the last tsc build (`tsc` alone leaves them stale: then its output runs).
const bundled = (() => {
  const built = statSync(new URL('../dist/bundle/inputs.json', import.meta.url), { throwIfNoEntry: false });
  const tsc = statSync(new URL('../dist/.tsbuildinfo', import.meta.url), { throwIfNoEntry: false });
  return !!built && (!tsc || tsc.mtimeMs <= built.mtimeMs);
})();
const entry = (bundle, tsc) => new URL(bundled ? `../dist/bundle/${bundle}` : `../dist/${tsc}`, import.meta.url).href;
if (rest.length === 1 && (rest[0] === '--version' || rest[0] === '-V')) {
  // The version alone needs no argument parser (commander costs more than the rest of this start).
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else if (rest[0] === 'hook' && rest.length >= 2 && !rest.includes('--help') && !rest.includes('-h')) {
  const { hookMain } = await import(entry('hooks.js', 'hooks/process.js'));
  await hookMain([...rest.slice(1), ...home]);
} else {
  // `loci search` and `loci mine` start from entries of their own (one bundle file with all a local search
  // loads; the re-mine's few); for any other form of them (help, other options, a remote palace…) the entry
  // returns undefined and the CLI runs.
  const code =
    rest[0] === 'search'
      ? await (await import(entry('search.js', 'cli/search-main.js'))).searchMain(args, process.env)
      : rest[0] === 'mine'
        ? await (await import(entry('mine.js', 'cli/mine-main.js'))).mineMain(args, process.env)
        : undefined;
  if (code !== undefined) process.exitCode = code;
  else {
    const { main } = await import(entry('cli.js', 'cli/main.js'));
    // The process boundary hands its environment to the CLI, which reads variables only through
    // src/core/env.ts (loaded by the commands that need it, so `--help` stays free of library modules).
    process.exitCode = await main(args, process.env);
  }
}
