/**
 * @module extract/derivable
 * The rule set that keeps extraction from saving what the code or git already records (Claude
 * Code's save policy: "do not save what the repo, git history or CLAUDE.md already records").
 * Each rule names itself; {@link derivableReason} returns the first that fires, or undefined.
 *
 * Rules (the fact is the name, description and body; `Why` / `How to apply` lines excluded):
 * - `git-history`: a commit hash, or a past git event (committed, merged, pushed, rebased,
 *   reverted, tagged, a PR merged) stated as a fact rather than a rule to follow;
 * - `claude-md`: ≥ 80 % of the fact's content words are in one of the project's CLAUDE.md files;
 * - `code-location`: a `project`/`reference` fact naming a file path or a code symbol with a
 *   structure verb ("X lives in src/a.ts", "`parseFoo()` returns …", "defined in …");
 * - `repo-command`: a `project`/`reference` fact that only says which command builds, tests,
 *   lints or runs the project (`npm test`, `make`, `cargo build`…): the manifests record it;
 * - `dependency`: a `project`/`reference` fact that only says which library, framework or
 *   language the project uses: its manifests record it;
 * - `session-file`: a `project`/`reference` fact naming a file the session read or edited, with
 *   nothing beyond it (what is in the file is in the repository).
 *
 * Plans, decisions, deadlines, reasons, incidents, people and preferences are not derivable: a
 * fact with a plan or rule cue ("we will", "decided", "deadline", "because", "always", "prefer",
 * "don't") is exempt from `code-location`, `repo-command`, `dependency` and `session-file`.
 * `feedback` and `user` memories (how to work, who the user is) are exempt from every rule but
 * `git-history` and `claude-md`.
 */
import type { MemoryType } from '../memdir/index.js';

/** What the session itself shows (files touched, commands run), to recognise its facts. */
interface DerivableContext {
  /** Paths the session read or edited (as written in its tool calls). */
  files?: readonly string[];
  /** The text of the project's CLAUDE.md files, one entry per file. */
  claudeMd?: readonly string[];
}

/** The fields of a memory the rules read. */
export interface FactFields {
  type: MemoryType;
  name: string;
  description: string;
  body: string;
}

/** A commit hash: 7–40 hex digits with a letter and a digit, standing alone (not part of a path or file name). */
const HASH = /(?<![\w./-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![\w/-]|\.\w)/;
const GIT_VERB = String.raw`(?:committed|merged|pushed|rebased|reverted|cherry-picked|squashed|tagged|force-pushed)`;
const GIT_EVENT = new RegExp(
  String.raw`\b(?:was|were|got|been|has|have|had|I|we|you|they|he|she)\s+(?:\w+\s+)?` +
    GIT_VERB +
    String.raw`\b|\b` +
    GIT_VERB +
    String.raw`\s+(?:\w+\s+)?(?:to|into|onto|on|in|from)\s+(?:the\s+)?(?:main|master|develop|trunk|origin|upstream|` +
    String.raw`remote|release|branch|repo)` +
    String.raw`|\b(?:commit|PR|pull request|MR)\s+#?\w+\s+(?:was\s+)?(?:merged|landed|added|fixed|introduced` +
    String.raw`|reverted)\b|\bgit (?:log|blame|history) (?:shows|says)\b`,
  'i',
);
const RULE_CUE = new RegExp(
  String.raw`\b(?:always|never|don'?t|do not|avoid|prefer|must|should|make sure|remember|instead of|rather than` +
    String.raw`|unless|only when|before (?:committing|pushing|merging))\b`,
  'i',
);
const PLAN_CUE = new RegExp(
  String.raw`\b(?:will|plan(?:s|ned)?|going to|decided|decision|deadline|due|goal|because|so that|blocked` +
    String.raw`|waiting|freeze|migrat\w*|deprecat\w*|by \d{4}-\d{2}-\d{2}|on \d{4}-\d{2}-\d{2}|in the week of` +
    String.raw`|incident|outage|owner|asked|wants?|requested|agreed|priority|until|temporar\w*|workaround` +
    String.raw`|known issue|flaky)\b`,
  'i',
);
const PATH = new RegExp(
  String.raw`(?:^|[\s\`'"(])(?:\.{0,2}\/)?(?:[\w@.-]+\/)+[\w@.-]+\.[a-z0-9]{1,6}\b|(?:^|[\s\`'"(])[\w-]+\.(?:ts` +
    String.raw`|tsx|js|jsx|mjs|cjs|py|rs|go|rb|java|kt|swift|c|h|cc|cpp|hpp|cs|ex|exs|php|vue|svelte|json|ya?ml` +
    String.raw`|toml|lock|sql|sh|md)\b`,
  'i',
);
const SYMBOL = /`[A-Za-z_$][\w$.]*(?:\(\))?`|\b[a-z]+[A-Z]\w*\(\)|\b[A-Za-z_][\w]*\.[A-Za-z_]\w*\(\)/;
const STRUCTURE = new RegExp(
  String.raw`\b(?:lives?|is|are) (?:in|under|at)\b|\b(?:is |are )?(?:defined|declared|implemented|located` +
    String.raw`|exported|stored|kept|configured|registered) (?:in|at|by|from)\b|\b(?:contains|implements` +
    String.raw`|exports|imports|returns|calls|handles|wraps|extends|inherits|renders|parses|takes an?` +
    String.raw`|accepts)\b|\bentry ?point\b|\bis responsible for\b|\bthe (?:function|method|class|module` +
    String.raw`|component|file|folder|directory|hook|handler)\b`,
  'i',
);
/**
 * A command line: backticked text shaped like one (a lower-case program name and arguments, e.g.
 * `` `mix credo --strict` ``), or a known build or package tool with an argument right after
 * "run", "with", "via", "using" (tool names that are English words — make, go, just — are only
 * trusted there or in backticks).
 */
const COMMAND = new RegExp(
  String.raw`\`[a-z][\w.-]*(?: [^\`\n]+)+\`|\b(?:run|runs|running|with|via|using|execute)\s+` +
    String.raw`(?:npm|npx|yarn|pnpm|bun|make|cargo|go|pytest|python3?|pip3?|poetry|uv|mix|bundle|rake|gradlew?|mvn|` +
    String.raw`dotnet|deno|docker|just|tox|nox|node|ruby|php|composer|swift|dart|flutter|cmake|ninja|bazel|` +
    String.raw`\.\/[\w.-]+)\s+[\w./:=@-]+`,
  'i',
);
const COMMAND_ONLY = new RegExp(
  String.raw`\b(?:(?:to|we|you) (?:build|test|lint|run|start|compile|format|install)|(?:tests?|builds?|linting` +
    String.raw`|the (?:app|server|project)) (?:are |is )?(?:run|built|started|linted|executed)? ?(?:with|via|using` +
    String.raw`|by)|run(?:s)? (?:with|via|using)|command (?:is|for))\b`,
  'i',
);
const DEPENDENCY = new RegExp(
  String.raw`\b(?:uses|using|built (?:with|on)|written in|depends on|is based on|runs on|powered by` +
    String.raw`|relies on)\s+(?:the\s+)?[\`'"]?[A-Z@][\w.@/-]*`,
  '',
);

/** Content words of a text (lower case, ≥ 3 letters, stop words out). */
function words(s: string): string[] {
  return (s.toLowerCase().match(/[a-z0-9][a-z0-9_.-]{2,}/g) ?? []).filter((w) => !STOP.has(w));
}
const STOP = new Set(
  (
    'the and for that this with from are was were has have had not but you your our its use uses used into when ' +
    'then than they them their there what which who will would should could been being also only just more most very'
  ).split(' '),
);

/** The fact: name, description and body, with the `**Why:**` / `**How to apply:**` lines left out. */
function factText(f: FactFields): string {
  const body = f.body
    .split('\n')
    .filter((l) => !/^\s*\*\*(?:Why|How to apply):\*\*/i.test(l))
    .join('\n');
  return `${f.name}\n${f.description}\n${body}`;
}

function mentionsSessionFile(fact: string, files: readonly string[]): string | undefined {
  for (const f of files) {
    const base = f.split('/').pop() ?? f;
    if (base.length >= 4 && (fact.includes(f) || new RegExp(`(?:^|[\\s\`'"/(])${escapeRe(base)}\\b`).test(fact)))
      return f;
  }
  return undefined;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The first rule (see the module comment) by which `fact` is derivable from the code, git or
 * CLAUDE.md, as `{ rule, reason }`; undefined when none fires.
 */
export function derivableReason(
  f: FactFields,
  ctx: DerivableContext = {},
): { rule: string; reason: string } | undefined {
  const fact = factText(f);
  const preference = RULE_CUE.test(fact);
  if (HASH.test(fact) || (GIT_EVENT.test(fact) && !preference)) {
    return { rule: 'git-history', reason: 'a commit or a past git event: `git log` records it' };
  }
  for (const text of ctx.claudeMd ?? []) {
    const have = new Set(words(text));
    const w = words(fact);
    if (w.length >= 4 && w.filter((x) => have.has(x)).length / w.length >= 0.8) {
      return { rule: 'claude-md', reason: 'CLAUDE.md already says this' };
    }
  }
  if (f.type === 'feedback' || f.type === 'user') return undefined;
  if (preference || PLAN_CUE.test(fact)) return undefined;
  if ((PATH.test(fact) || SYMBOL.test(fact)) && STRUCTURE.test(fact)) {
    return { rule: 'code-location', reason: 'where code lives or what it does: reading the code shows it' };
  }
  if (COMMAND.test(fact) && COMMAND_ONLY.test(fact)) {
    return { rule: 'repo-command', reason: "a build/test/run command: the project's manifests and scripts record it" };
  }
  if (DEPENDENCY.test(fact) && words(fact).length <= 20) {
    return { rule: 'dependency', reason: 'a library or language the project uses: its manifests record it' };
  }
  const file = mentionsSessionFile(fact, ctx.files ?? []);
  if (file) return { rule: 'session-file', reason: `describes ${file}, a file of the repository` };
  return undefined;
}

/** The files a session read or edited, from its tool-call lines (`[Read path]`, `[Edit path]`, `[Write path]`…). */
export function sessionFiles(toolLines: readonly string[]): string[] {
  const out = new Set<string>();
  for (const l of toolLines) {
    const m = /^\[(?:Read|Edit|MultiEdit|Write|NotebookEdit) ([^\]:]+)(?::\d+-\d+)?\]/.exec(l);
    if (m) out.add(m[1]!.trim());
  }
  return [...out];
}
