/**
 * @module ingest/convos/noise
 * What is dropped from agent transcripts because it was injected by the harness, not said.
 *
 * Tags removed with their content (Claude Code; also applied to Codex/Gemini text):
 * `system-reminder`, `command-name`, `command-message`, `command-args`, `command-contents`,
 * `local-command-stdout`, `local-command-stderr`, `local-command-caveat`, `user-prompt-submit-hook`,
 * `task-notification`, `hook_output`, `ide_opened_file`, `ide_selection`, `ide_diagnostics`,
 * `bash-stdout`, `bash-stderr`, `environment_context`, `user_instructions`, `user_action`.
 *
 * Two rewrites keep what the user typed: a slash command with arguments becomes one line
 * `/name args` (a bare command such as `/clear` is dropped), and `<bash-input>cmd</bash-input>`
 * (a `!cmd` shell escape) becomes `! cmd`.
 *
 * Whole lines removed: `[Request interrupted by user]`, `[Request interrupted by user for tool use]`,
 * `No response requested.`.
 *
 * A `task-notification` (a background agent or command finished) is not said by the user, but its
 * summary and result are what the session got back: {@link taskNotifications} reads them so the
 * parser can keep them as a tool result. The line the harness appends after one (`Full transcript
 * available at: …`, `Read the output file to retrieve the result: …`) goes with it.
 */

/** Tags stripped with their content. */
const NOISE_TAGS: readonly string[] = [
  'system-reminder',
  'command-name',
  'command-message',
  'command-args',
  'command-contents',
  'local-command-stdout',
  'local-command-stderr',
  'local-command-caveat',
  'user-prompt-submit-hook',
  'task-notification',
  'hook_output',
  'ide_opened_file',
  'ide_selection',
  'ide_diagnostics',
  'bash-stdout',
  'bash-stderr',
  'environment_context',
  'user_instructions',
  'user_action',
];

/** Whole lines removed. */
const NOISE_LINES: readonly RegExp[] = [
  /^\[Request interrupted by user(?: for tool use)?\]$/,
  /^No response requested\.$/,
];

const TAG_RE = new RegExp(`<(${NOISE_TAGS.map((t) => t.replace(/-/g, '\\-')).join('|')})>[\\s\\S]*?</\\1>`, 'g');
const TASK_TRAILER = /^[ \t]*(?:Full transcript available at|Read the output file to retrieve the result):[^\n]*$/gm;
const CMD_NAME = /<command-name>([\s\S]*?)<\/command-name>/;
const CMD_ARGS = /<command-args>([\s\S]*?)<\/command-args>/;
const BASH_INPUT = /<bash-input>([\s\S]*?)<\/bash-input>/g;

/**
 * Removes harness noise from a user or assistant text (see the module comment for the list) and
 * trims it. Returns '' when nothing said is left.
 */
export function stripNoise(text: string): string {
  let t = text;
  if (t.includes('<')) {
    let command = '';
    if (t.includes('<command-name>')) {
      const name = CMD_NAME.exec(t)?.[1]?.trim() ?? '';
      const args = CMD_ARGS.exec(t)?.[1]?.trim() ?? '';
      if (name && args) command = `${name.startsWith('/') ? name : `/${name}`} ${args}`;
    }
    const notified = t.includes('<task-notification>');
    t = t.replace(TAG_RE, '');
    // the harness's pointer to the task's output file, appended after a notification
    if (notified) t = t.replace(TASK_TRAILER, '');
    if (t.includes('<bash-input>')) t = t.replace(BASH_INPUT, (_m, cmd: string) => `! ${cmd.trim()}`);
    if (command) t = t.trim() ? `${command}\n${t}` : command;
  }
  if (t.includes('[Request interrupted') || t.includes('No response requested')) {
    t = t
      .split('\n')
      .filter((l) => !NOISE_LINES.some((re) => re.test(l.trim())))
      .join('\n');
  }
  return t.trim();
}

const NOTIFICATION = /<task-notification>([\s\S]*?)<\/task-notification>/g;
const field = (body: string, tag: string): string =>
  new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(body)?.[1]?.trim() ?? '';

/**
 * The `<task-notification>` blocks of a text as result texts (`summary` then `result`, e.g.
 * `Agent "Poem" completed` and the agent's answer), with `failed` for a status other than completed.
 */
export function taskNotifications(text: string): { text: string; failed: boolean }[] {
  if (!text.includes('<task-notification>')) return [];
  const out: { text: string; failed: boolean }[] = [];
  for (const m of text.matchAll(NOTIFICATION)) {
    const body = m[1]!;
    const t = [field(body, 'summary'), field(body, 'result')].filter(Boolean).join('\n');
    const status = field(body, 'status');
    if (t) out.push({ text: t, failed: status !== '' && status !== 'completed' });
  }
  return out;
}
