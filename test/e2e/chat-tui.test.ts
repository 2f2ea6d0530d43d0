/**
 * @module test/e2e/chat-tui
 * The interactive `loci chat` driven in a real terminal: tmux runs `bin/loci.js chat` against the
 * streaming loopback server; keys go in with `send-keys` and the screen is read with
 * `capture-pane`, polled until the expected text appears (no timing assertions: one generous
 * deadline per step). Covers a streamed answer with a tool call, an edit's diff, the y/N question
 * before a shell command, Ctrl-C stopping a turn, `/context`, `/memory`, `/compact`, `/clear`, `/resume` and `/exit`.
 * Skipped when tmux is not installed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { BIN, chatEnv, tempDir, writeTree } from '../helpers/cli.js';
import { startLoopback, type Loopback } from '../helpers/loopback.js';
import { streamReply } from '../helpers/stream-replies.js';

const TMUX = ['/usr/bin/tmux', '/usr/local/bin/tmux', '/opt/homebrew/bin/tmux'].find((p) => existsSync(p));
const ROUTE = 'anthropic.messages';
const STEP_DEADLINE_MS = 30_000;

describe('loci chat in a terminal (tmux)', { skip: TMUX ? false : 'tmux is not installed' }, () => {
  let server: Loopback;
  const t = tempDir('loci-chat-tui-');
  const socket = `loci-test-${process.pid}`;
  const project = join(t.dir, 'project');
  const tmux = (...args: string[]) => execFileSync(TMUX!, ['-L', socket, ...args], { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', 'chat');

  /** Polls the screen until `pattern` shows, failing with the screen after the deadline. */
  async function waitFor(pattern: RegExp): Promise<string> {
    const end = Date.now() + STEP_DEADLINE_MS;
    let last = '';
    while (Date.now() < end) {
      last = screen();
      if (pattern.test(last)) return last;
      await delay(100);
    }
    assert.fail(`the screen never showed ${pattern}:\n${last}`);
  }
  /** Types a line once the UI waits for one (its last line is the bare prompt). */
  const type = async (text: string) => {
    await waitFor(/(^|\n)› *\n*$/);
    tmux('send-keys', '-t', 'chat', '-l', text);
    tmux('send-keys', '-t', 'chat', 'Enter');
  };
  /** Answers a question (no prompt to wait for). */
  const answer = (text: string) => {
    tmux('send-keys', '-t', 'chat', '-l', text);
    tmux('send-keys', '-t', 'chat', 'Enter');
  };

  before(async () => {
    server = await startLoopback();
    writeTree(project, { 'src/config.ts': 'export const retries = 3;\n' });
    const env = { ...chatEnv(t.dir, server.url), NO_COLOR: '1', TERM: 'xterm-256color' };
    const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    tmux(
      'new-session',
      '-d',
      '-s',
      'chat',
      '-x',
      '160',
      '-y',
      '50',
      '-c',
      project,
      ...envArgs,
      `${process.execPath} ${BIN} chat`,
    );
    tmux('set-option', '-t', 'chat', 'remain-on-exit', 'on');
  });

  after(async () => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    await server.close();
    t.cleanup();
  });

  it('streams answers, shows tool calls and diffs, asks before shell, and runs the slash commands', async () => {
    await waitFor(/type \/help for commands/);

    server.reply(
      ROUTE,
      streamReply(ROUTE, {
        text: 'Raising the retries.',
        toolCalls: [
          { id: 'e1', name: 'edit', input: { path: 'src/config.ts', old: 'retries = 3', new: 'retries = 5' } },
        ],
      }),
      streamReply(ROUTE, { text: 'Done: retries is now five.' }),
    );
    await type('raise the retries to five please');
    const edited = await waitFor(/Done: retries is now five\./);
    assert.match(edited, /⏺ edit\(src\/config\.ts\)/);
    assert.match(edited, /-export const retries = 3;/);
    assert.match(edited, /\+export const retries = 5;/);
    assert.equal(readFileSync(join(project, 'src', 'config.ts'), 'utf8'), 'export const retries = 5;\n');

    server.reply(
      ROUTE,
      streamReply(ROUTE, { toolCalls: [{ id: 's1', name: 'shell', input: { command: 'echo tui-shell-ran' } }] }),
      streamReply(ROUTE, { text: 'The command printed its line.' }),
    );
    await type('run the echo');
    await waitFor(/run echo tui-shell-ran\? \[y\/N\]/);
    answer('y');
    const ran = await waitFor(/The command printed its line\./);
    assert.match(ran, /tui-shell-ran/);

    server.reply(ROUTE, streamReply(ROUTE, { text: 'This answer never ends', truncate: true, hang: true }));
    await type('start a long answer');
    await waitFor(/This answer never ends/);
    tmux('send-keys', '-t', 'chat', 'C-c');
    await waitFor(/error: .*cancelled/);

    await type('/context');
    const ctx = await waitFor(/window: \d+ tokens/);
    assert.match(ctx, /section\s+tokens\s+of window/);
    assert.match(ctx, /messages\s+\d+/);

    await type('/memory');
    await waitFor(/no memory files in /);

    await type('/compact keep the config change');
    await waitFor(/compacted \d+ messages?|nothing to compact yet/);

    await type('/clear');
    await waitFor(/new conversation \(/);

    await type('/resume');
    const list = await waitFor(/^\s+1\s+\d{4}-\d\d-\d\dT/m);
    assert.match(list, /raise the retries to five please/);
    await type('/resume 1');
    await waitFor(/resumed "raise the retries to five please"/);

    await type('/exit');
    // The process ended: tmux's own flag, not the "Pane is dead" line, which a full screen can hide.
    const end = Date.now() + STEP_DEADLINE_MS;
    while (tmux('display-message', '-p', '-t', 'chat', '#{pane_dead}').trim() !== '1') {
      if (Date.now() > end) assert.fail(`loci chat still runs after /exit:\n${screen()}`);
      await delay(100);
    }
  });
});
