/**
 * @module agent/tools-shell
 * The `shell` tool: one command through `/bin/sh -c` in the working directory, run only after the
 * person confirms it (or the caller's allow list does). Output (stdout then stderr) is capped; the
 * exit code is reported; a command past its time limit is killed.
 */
import { spawn } from 'node:child_process';
import type { AgentTool } from './types.js';

/** Default and most time one command may take, in ms. */
const SHELL_TIMEOUT_MS = 120_000;
/** Most characters of output kept (the rest is cut with a note). */
const SHELL_MAX_CHARS = 200_000;

/** Runs `command`; resolves with its combined output and exit code (never rejects). */
function runCommand(
  command: string,
  cwd: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<{ output: string; code: number | null; killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let killed = false;
    const keep = (s: string, add: Buffer) => (s.length < SHELL_MAX_CHARS ? s + add.toString('utf8') : s);
    child.stdout.on('data', (c: Buffer) => (out = keep(out, c)));
    child.stderr.on('data', (c: Buffer) => (err = keep(err, c)));
    const kill = () => {
      killed = true;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(kill, timeoutMs);
    signal?.addEventListener('abort', kill, { once: true });
    const finish = (code: number | null) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', kill);
      let output = (out.trimEnd() + (err.trim() ? `${out.trim() ? '\n' : ''}${err.trimEnd()}` : '')).trimStart();
      if (output.length > SHELL_MAX_CHARS) output = `${output.slice(0, SHELL_MAX_CHARS)}\n… output cut`;
      resolve({ output, code, killed });
    };
    child.on('error', (e) => {
      err += e.message;
      finish(null);
    });
    child.on('close', (code) => finish(code));
  });
}

/** The shell tool. */
export const SHELL_TOOL: AgentTool = {
  spec: {
    name: 'shell',
    description:
      'Run a shell command in the project root (the person confirms each command first). Returns its output ' +
      'and exit code. Prefer read, list and grep for looking at files.',
    inputSchema: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command line (run by /bin/sh -c)' },
        timeoutMs: { type: 'integer', description: `Time limit in ms (default and most ${SHELL_TIMEOUT_MS})` },
      },
      required: ['command'],
    },
  },
  async run(input, ctx) {
    const command = typeof input['command'] === 'string' ? input['command'].trim() : '';
    if (!command) return { content: 'command is empty', isError: true };
    if (!(await ctx.confirm({ tool: 'shell', summary: command }))) {
      return { content: `the person declined to run: ${command}`, isError: true };
    }
    const asked = Number(input['timeoutMs']);
    const timeoutMs = Number.isInteger(asked) && asked > 0 ? Math.min(asked, SHELL_TIMEOUT_MS) : SHELL_TIMEOUT_MS;
    const r = await runCommand(command, ctx.cwd, timeoutMs, ctx.signal);
    const status = r.killed ? 'killed (time limit or cancelled)' : `exit code ${r.code ?? 'unknown'}`;
    return { content: `${r.output}${r.output ? '\n' : ''}[${status}]`, isError: r.killed || r.code !== 0 };
  },
};
