/**
 * @module test/helpers/cli
 * Runs the built `bin/loci.js` as a real child process, and makes temp folders.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(ROOT, 'bin', 'loci.js');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `loci …args` synchronously with a private LOCI_HOME unless `env` overrides it. */
export function loci(
  args: string[],
  opts: { home?: string; cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {},
): RunResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    input: opts.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...(opts.home ? { LOCI_HOME: opts.home } : {}), ...opts.env },
    timeout: 120_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Like {@link loci} but asynchronous (for concurrent runs). */
export function lociAsync(
  args: string[],
  opts: { home?: string; env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: '1', ...(opts.home ? { LOCI_HOME: opts.home } : {}), ...opts.env },
    });
    child.stdin.end(opts.input ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** A fresh temp folder, removed by the returned cleanup. */
export function tempDir(prefix = 'loci-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a tree of files: `{ 'a/b.md': 'text' }`. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
}

/**
 * The environment of a `loci chat` child process: private homes under `root` (no Claude Code
 * folders) and the LLM at `baseUrl` (a loopback server) speaking Anthropic's protocol.
 */
export function chatEnv(root: string, baseUrl: string): Record<string, string> {
  return {
    HOME: join(root, 'userhome'),
    LOCI_HOME: join(root, 'home'),
    CLAUDE_CONFIG_DIR: '',
    LOCI_LLM_PROVIDER: 'anthropic',
    LOCI_LLM_BASE_URL: baseUrl,
    LOCI_LLM_API_KEY: 'sk-loopback',
    LOCI_EMBEDDER: 'none',
  };
}
