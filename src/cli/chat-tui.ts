/**
 * @module cli/chat-tui
 * The terminal UI of `loci chat`: a line prompt (node:readline), the model's answer streamed as it
 * arrives, tool calls and results as dim lines (an edit's diff in colour), a y/N question before a
 * shell command, and the slash commands `/compact [instructions]`, `/context`, `/memory`, `/clear`,
 * `/resume [n|id]`, `/help`, `/exit`. Ctrl-C stops a running turn (twice on an idle prompt exits);
 * Ctrl-D exits. All the work is done by the {@link ChatController} it is given.
 */
import { createInterface, type Interface } from 'node:readline/promises';
import type { AgentEvent, TurnResult } from '../agent/index.js';
import { table } from './format.js';

/** A row of `/context`. */
interface ContextRow {
  section: string;
  tokens: number;
}

/** What the UI asks of the chat session (implemented by `commands/chat.ts`). */
export interface ChatController {
  /** A line shown once at start (model, session, tools). */
  banner(): string;
  runTurn(prompt: string, signal: AbortSignal, onEvent: (e: AgentEvent) => void): Promise<TurnResult>;
  compact(instructions: string | undefined): Promise<string>;
  context(): { rows: ContextRow[]; total: number; window: number };
  memory(): { dir: string; rows: string[][] };
  clear(): Promise<string>;
  /** Without an argument: the saved sessions as rows; with one: resumes it and says so. */
  resume(which: string | undefined): Promise<string>;
  /** Called once at exit (archive, save). */
  close(): Promise<void>;
}

/** Terminal styling (identity functions when colours are off). */
interface TuiStyle {
  bold(s: string): string;
  dim(s: string): string;
  cyan(s: string): string;
  green(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
}

const HELP = [
  ['/compact [instructions]', 'summarise the conversation so far (optionally: what to focus on)'],
  ['/context', 'tokens in the context, by section'],
  ['/memory', 'the memory files recall draws on'],
  ['/clear', 'start a new conversation (the old one stays in the palace)'],
  ['/resume [n|id]', 'list saved conversations, or continue one'],
  ['/exit', 'quit (Ctrl-D)'],
];

function short(input: Record<string, unknown>): string {
  const first = input['path'] ?? input['pattern'] ?? input['command'] ?? input['query'] ?? input['action'];
  const s = typeof first === 'string' ? first : JSON.stringify(input);
  return s.length > 100 ? `${s.slice(0, 100)}…` : s;
}

/** Colours a unified diff. */
function colourDiff(diff: string, st: TuiStyle): string {
  return diff
    .split('\n')
    .map((l) =>
      l.startsWith('+') && !l.startsWith('+++')
        ? st.green(l)
        : l.startsWith('-') && !l.startsWith('---')
          ? st.red(l)
          : st.dim(l),
    )
    .join('\n');
}

/** Runs the interactive UI until `/exit`, Ctrl-D or end of input. */
export async function runChatTui(
  ctrl: ChatController,
  io: {
    input: NodeJS.ReadableStream;
    output: NodeJS.WritableStream;
    style: TuiStyle;
    /** Receives the function that asks the person a y/N question on the prompt line (for the shell tool). */
    bindConfirm(ask: (summary: string) => Promise<boolean>): void;
  },
): Promise<void> {
  const out = (s: string) => void io.output.write(s);
  const st = io.style;
  const terminal = (io.input as { isTTY?: boolean }).isTTY === true;
  const rl: Interface = createInterface({ input: io.input, output: io.output, terminal, historySize: 200 });
  let closed = false;
  const closing = new AbortController();
  rl.on('close', () => {
    closed = true;
    closing.abort();
  });
  let turn: AbortController | undefined;
  let lastSigint = 0;
  rl.on('SIGINT', () => {
    if (turn) {
      turn.abort();
      return;
    }
    const now = Date.now();
    if (now - lastSigint < 2_000) rl.close();
    else out(st.dim('\n(press Ctrl-C again or Ctrl-D to quit)\n'));
    lastSigint = now;
  });

  // Piped input arrives all at once: lines are queued so that none is lost while a turn runs.
  const queued: string[] = [];
  let wake: (() => void) | undefined;
  if (!terminal) {
    rl.on('line', (l) => {
      queued.push(l);
      wake?.();
    });
    rl.on('close', () => wake?.());
  }
  const nextQueued = async (q: string): Promise<string | undefined> => {
    out(q);
    while (queued.length === 0 && !closed) await new Promise<void>((r) => (wake = r));
    const line = queued.shift();
    if (line !== undefined) out(`${line}\n`);
    return line;
  };
  const ask = async (q: string, also?: AbortSignal): Promise<string | undefined> => {
    if (!terminal) return nextQueued(q);
    try {
      return await rl.question(q, { signal: also ? AbortSignal.any([closing.signal, also]) : closing.signal });
    } catch {
      return undefined;
    }
  };

  // The confirmation question for the shell tool, answered on the same prompt line.
  io.bindConfirm(async (summary: string) => {
    // Ctrl-C during the question stops the turn and so answers no.
    const a = await ask(`${st.yellow('run')} ${st.bold(summary)}${st.yellow('?')} [y/N] `, turn?.signal);
    return a !== undefined && /^y(es)?$/i.test(a.trim());
  });

  out(`${ctrl.banner()}\n${st.dim('type /help for commands')}\n`);
  for (;;) {
    const line = await ask(st.cyan('› '));
    if (line === undefined) break;
    const text = line.trim();
    if (text === '') continue;
    try {
      if (text.startsWith('/')) {
        if (!(await slash(text))) break;
        continue;
      }
      turn = new AbortController();
      let atLineStart = true;
      const onEvent = (e: AgentEvent) => {
        const nl = atLineStart ? '' : '\n';
        if (e.type === 'text') {
          out(e.text);
          atLineStart = e.text.endsWith('\n');
          return;
        }
        if (e.type === 'tool_call') out(`${nl}${st.dim(`⏺ ${e.name}(${short(e.input)})`)}\n`);
        else if (e.type === 'tool_result') {
          const body = e.display ?? e.content.split('\n').slice(0, 3).join('\n');
          const shown = e.display ? colourDiff(body, st) : st.dim(body);
          out(`${nl}${e.isError ? st.red(`  ⎿ ${body.split('\n')[0] ?? ''}`) : shown.replace(/^/gm, '  ')}\n`);
        } else if (e.type === 'memories') out(`${nl}${st.dim(`recalled ${e.files.join(', ')}`)}\n`);
        else if (e.type === 'compaction') {
          out(`${nl}${st.dim(`context compacted (${e.mode}): ${e.tokensBefore} → ${e.tokensAfter} tokens`)}\n`);
        } else if (e.type === 'notice') out(`${nl}${st.yellow(e.text)}\n`);
        else return;
        atLineStart = true;
      };
      const r = await ctrl.runTurn(text, turn.signal, onEvent);
      const u = r.usage;
      out(
        `${atLineStart ? '' : '\n'}${st.dim(
          `[${r.modelCalls} call${r.modelCalls === 1 ? '' : 's'} · in ${u.inputTokens} · out ${u.outputTokens}` +
            ` · cache read ${u.cacheReadTokens}]`,
        )}\n`,
      );
    } catch (e) {
      out(`\n${st.red(`error: ${(e as Error)?.message ?? String(e)}`)}\n`);
    } finally {
      turn = undefined;
    }
  }
  rl.close();
  await ctrl.close();

  async function slash(cmd: string): Promise<boolean> {
    const [name = '', ...rest] = cmd.slice(1).split(/\s+/);
    const arg = rest.join(' ').trim() || undefined;
    switch (name) {
      case 'exit':
      case 'quit':
        return false;
      case 'help':
        out(table(HELP));
        return true;
      case 'compact':
        out(`${st.dim('compacting…')}\n`);
        out(`${await ctrl.compact(arg)}\n`);
        return true;
      case 'context': {
        const c = ctrl.context();
        const pct = (n: number) => `${((100 * n) / Math.max(1, c.window)).toFixed(1)} %`;
        const rows = [
          ['section', 'tokens', 'of window'],
          ...c.rows.map((r) => [r.section, String(r.tokens), pct(r.tokens)]),
          ['total', String(c.total), pct(c.total)],
        ];
        out(`${table(rows)}${st.dim(`window: ${c.window} tokens`)}\n`);
        return true;
      }
      case 'memory': {
        const m = ctrl.memory();
        out(m.rows.length === 0 ? `no memory files in ${m.dir}\n` : `${st.dim(m.dir)}\n${table(m.rows)}`);
        return true;
      }
      case 'clear':
        out(`${await ctrl.clear()}\n`);
        return true;
      case 'resume':
        out(`${await ctrl.resume(arg)}\n`);
        return true;
      default:
        out(`unknown command /${name} — /help lists them\n`);
        return true;
    }
  }
}
