/**
 * @module bench/injection
 * What the hooks inject into the agent, judged on the real development transcripts
 * (`../shared/data/transcripts`), through the built bin as Claude Code runs it (a process per hook,
 * the hook JSON on stdin, no warm server):
 * 1. **wake-up** (`loci wake-up --wing W --json`, the session-start text) for every wing: characters,
 *    tokens (over 800 = over budget), "noise" lines (tool calls such as `[Bash] …` or
 *    `[exec_command] …`, tool results `→ …`, JSON, `<system-reminder>`, command caveats) and lines
 *    labelled "Open question";
 * 2. **recall** (`loci hook user-prompt-submit`) for the prompts of `bench/data/injection-prompts.json`
 *    (paraphrased, written for this bench), each with a new session id, cwd = a folder named after
 *    the project (a git repository; `bastion` and `weatherapp` hold a README and code, mined too):
 *    a prompt with `expect` is right when a drawer of its own wing holding that word is injected;
 *    a prompt without one (small talk, stop words) should inject nothing; drawers of other wings are
 *    counted; injected drawer text is split into tool output (`→ …`, `[Tool] {json}`) and the rest.
 * `--before BIN` runs another build's `bin/loci.js` on a copy of the same palace, in the same run.
 * Usage: node --import tsx bench/injection.ts [--before /path/to/bin/loci.js] [--transcripts DIR] [--keep DIR]
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(here, 'bin', 'loci.js');
const transcripts = arg('transcripts') ?? join(here, '..', 'shared', 'data', 'transcripts');
if (!existsSync(transcripts)) {
  process.stdout.write(`${JSON.stringify({ skipped: `no transcripts at ${transcripts}` })}\n`);
  process.exit(0);
}
interface Prompt {
  project: string;
  prompt: string;
  expect: string | null;
}
const prompts = (
  JSON.parse(readFileSync(join(here, 'bench', 'data', 'injection-prompts.json'), 'utf8')) as {
    prompts: Prompt[];
  }
).prompts;

const root = arg('keep') ?? mkdtempSync(join(tmpdir(), 'loci-injection-'));
const projects = join(root, 'projects');

function run(bin: string, home: string, args: string[], cwd: string, input?: string) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, HOME: home, LOCI_HOME: join(home, '.loci'), LOCI_HOOK_SERVER: '0', LOCI_HOOK_WORKER: '0' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`loci ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** The palace: the transcripts (convos) and two small projects, mined once with this build. */
function preparePalace(home: string): void {
  if (existsSync(join(home, '.loci'))) return;
  mkdirSync(home, { recursive: true });
  run(BIN, home, ['mine', transcripts, '--mode', 'convos'], root);
  const files: Record<string, Record<string, string>> = {
    bastion: { 'README.md': '# Bastion\n\nA Rust agent sandbox server.\n', 'src/main.rs': 'fn main() {}\n' },
    weatherapp: {
      'README.md':
        '# WeatherApp\n\nFetches forecasts and caches them in Redis.\n\n- We use Redis with a 10 minute TTL.\n',
      'index.js': 'export async function forecast(city) {\n  return fetch(`/v1/forecast?city=${city}`);\n}\n',
    },
  };
  for (const [name, tree] of Object.entries(files)) {
    for (const [f, text] of Object.entries(tree)) {
      mkdirSync(dirname(join(projects, name, f)), { recursive: true });
      writeFileSync(join(projects, name, f), text);
    }
    run(BIN, home, ['mine', join(projects, name)], root);
  }
}

const NOISE = [
  /(?<!^- )\[[A-Za-z][\w.:-]+\]\s/,
  /→/,
  /system-reminder/i,
  /^\s*caveat:/i,
  /<command-/,
  /\{"[a-z_]+":/,
  /\bexec_command\b|run_shell_command|read_file/,
];
const TOOL_LINE = /^(?:…)?(?:→ |\[[^\]\n]{1,80}\] [{[])/;

function measure(bin: string, home: string) {
  const wings = Object.keys((JSON.parse(run(bin, home, ['list', 'wings', '--json'], root)) as { wings: object }).wings);
  const wake = { wings: 0, chars: 0, lines: 0, noiseLines: 0, overBudget: 0, openQuestions: 0 };
  for (const w of wings.filter((x) => x !== 'diary')) {
    const j = JSON.parse(run(bin, home, ['wake-up', '--wing', w, '--json'], root)) as { text: string; tokens: number };
    const lines = j.text.split('\n');
    wake.wings++;
    wake.chars += j.text.length;
    wake.lines += lines.length;
    wake.noiseLines += lines.filter((l) => NOISE.some((re) => re.test(l))).length;
    wake.openQuestions += lines.filter((l) => /Open question/.test(l)).length;
    if (j.tokens > 800) wake.overBudget++;
  }
  const recall = { relevant: 0, right: 0, silentWhenRelevant: 0, idle: 0, idleInjected: 0, foreignDrawers: 0 };
  const size = { injected: 0, chars: 0, drawerChars: 0, toolOutputChars: 0 };
  for (const p of prompts) {
    const cwd = join(projects, p.project);
    mkdirSync(cwd, { recursive: true });
    if (!existsSync(join(cwd, '.git'))) spawnSync('git', ['init', '-q'], { cwd });
    const input = JSON.stringify({
      session_id: randomUUID(),
      transcript_path: join(cwd, 'none.jsonl'),
      cwd,
      hook_event_name: 'UserPromptSubmit',
      prompt: p.prompt,
    });
    const out = run(bin, home, ['hook', 'user-prompt-submit'], cwd, input).trim();
    const text = out
      ? (JSON.parse(out) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext
      : '';
    const blocks = [...text.matchAll(/<drawer id="[^"]+"[^>]*wing="([^"]+)"[^>]*>\n([\s\S]*?)\n<\/drawer>/g)].map(
      (m) => ({ wing: m[1]!, body: m[2]! }),
    );
    recall.foreignDrawers += blocks.filter((b) => b.wing !== p.project).length;
    if (text) {
      size.injected++;
      size.chars += text.length;
    }
    for (const b of blocks)
      for (const l of b.body.split('\n')) {
        size.drawerChars += l.length + 1;
        if (TOOL_LINE.test(l)) size.toolOutputChars += l.length + 1;
      }
    if (p.expect !== null) {
      recall.relevant++;
      const want = p.expect.toLowerCase();
      if (blocks.some((b) => b.wing === p.project && b.body.toLowerCase().includes(want))) recall.right++;
      if (!text) recall.silentWhenRelevant++;
    } else if (p.project !== 'weatherapp') {
      recall.idle++;
      if (text) recall.idleInjected++;
    }
  }
  return { wake, recall, size };
}

const home = join(root, 'home');
preparePalace(home);
const before = arg('before');
const result: Record<string, unknown> = {};
if (before) {
  const copy = join(root, 'home-before');
  rmSync(copy, { recursive: true, force: true });
  cpSync(home, copy, { recursive: true });
  result['before'] = measure(resolve(before), copy);
}
const copy = join(root, 'home-after');
rmSync(copy, { recursive: true, force: true });
cpSync(home, copy, { recursive: true });
result['after'] = measure(BIN, copy);
process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
if (!arg('keep')) rmSync(root, { recursive: true, force: true });
