/**
 * @module kg/extract/prose
 * What extraction reads: only what a person or an assistant wrote in prose. A drawer mined from a
 * code file, a test or a fixture gives nothing; in a conversation, tool calls (`[Bash] …`,
 * `[Read path]`), tool results (`→ …`), harness tags (`<command-name>…`), shell, diff, table and
 * code-looking lines are blanked before any rule runs (see ARCHITECTURE.md, "What is read").
 */

/** The drawer fields the prose filter reads. */
interface ProseInput {
  text: string;
  source?: string | null;
  metadata?: Record<string, unknown>;
}

/** Why a whole drawer is not read; null when it is read. */
type SkipReason = 'code' | 'test-or-fixture' | null;

/** Languages (as the project miner records them) that are prose. */
const PROSE_LANGUAGES = new Set(['markdown', 'mdx', 'restructuredtext', 'asciidoc', 'text', 'plaintext', 'org']);
/** A path inside a test or fixture folder, or a test file. */
const TEST_PATH = new RegExp(
  String.raw`(?:^|[\\/])(?:tests?|__tests__|specs?|fixtures?|__fixtures__|testdata|test-data|__mocks__|mocks?|` +
    String.raw`snapshots?|__snapshots__|examples?\/fixtures)[\\/]|[._-](?:test|spec|fixture)s?\.[a-z0-9]+$`,
  'i',
);

function str(v: unknown): string | null {
  return typeof v === 'string' && v ? v : null;
}

/**
 * Whether a drawer is read at all. Project-file drawers carry `metadata.rel` / `kind` /
 * `language` (set by the project miner): `kind: 'code'` or a non-prose language is code; a path
 * in a test or fixture folder, or a `*.test.*` / `*.spec.*` file, is a fixture. Conversations,
 * memories and diary entries (no such metadata) are read.
 */
export function skipReason(input: ProseInput): SkipReason {
  const meta = input.metadata ?? {};
  const rel = str(meta['rel']);
  const kind = str(meta['kind']);
  const language = str(meta['language']);
  const fromFile = rel !== null || kind === 'code' || kind === 'markdown' || kind === 'text';
  if (kind === 'code' || (language !== null && !PROSE_LANGUAGES.has(language.toLowerCase()))) return 'code';
  if (fromFile && TEST_PATH.test(rel ?? input.source ?? '')) return 'test-or-fixture';
  return null;
}

// A tool call as conversations render it: `[Bash] npm test`, `[Read src/a.ts]`, optionally after
// its caller's label (`Assistant: [Bash] …`). Group 1: the label with its colon and space.
const TOOL_CALL = /^((?:[\p{L}\p{N}_.' -]{1,40}: )?)\[[^\]\n]{1,120}\]/u;
const TOOL_RESULT = /^\s*(?:→|←|⎿|\[(?:image|tool[ _]result)[^\]]*\])/;
const TOOL_TURN = /^(?:Tool|Function|Observation|Output|Result|stdout|stderr): /;
const HARNESS_TAG = /<\/?[a-z][\w-]*(?:\s[^<>]*)?>/;
const SHELL = /^\s*(?:\$|>>>|PS [A-Z]:\\[^>]*>|[\w.-]+@[\w.-]+:[^$#\n]*[$#]) /;
const DIFF = /^(?:@@ |[+-]{3} |[+-](?=[^\s+-])|diff --git |index [0-9a-f]{6,}\.\.[0-9a-f]{6,})/;
const TABLE = /^\s*\|/;
const CODE_END = /(?:[;{}[(]|=>|\)\s*\{|:=)\s*$/;
const CODE_START = new RegExp(
  String.raw`^\s*(?:use|import|from|export|const|let|var|fn|def|pub|class|struct|impl|package|module|require|` +
    String.raw`return|#include|#!|\/\/|\/\*)(?:\s|\(|$)`,
);
const ASSIGNMENT = /^\s*[\w.$-]+\s*(?:=|:=|\+=)\s*\S/;
const INDENTED = /^(?: {4,}|\t)(?![-*+] |\d+[.)] )/;
const PATH_ONLY = /^\s*(?:[A-Za-z]:)?[\w.~-]*[\\/][^\s]*\s*$/;

/** True when a line is not prose (tool line, harness tag, shell, diff, table, code). */
function isNonProseLine(line: string): boolean {
  if (line.length === 0) return false;
  return (
    TOOL_RESULT.test(line) ||
    TOOL_TURN.test(line) ||
    HARNESS_TAG.test(line) ||
    SHELL.test(line) ||
    DIFF.test(line) ||
    TABLE.test(line) ||
    INDENTED.test(line) ||
    CODE_START.test(line) ||
    CODE_END.test(line) ||
    ASSIGNMENT.test(line) ||
    PATH_ONLY.test(line)
  );
}

/**
 * The prose of a drawer's text: non-prose lines are removed; a tool call keeps only its caller's
 * label (`Assistant: …`) so that the prose after it stays in the right speaker's turn. Fenced code
 * blocks must be removed before (see `stripCode`). Line count is not kept.
 */
export function proseLines(text: string): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const call = TOOL_CALL.exec(line);
    if (call) {
      if (call[1]) out.push(`${call[1]}…`);
      continue;
    }
    if (!isNonProseLine(line)) out.push(line);
  }
  return out.join('\n');
}
