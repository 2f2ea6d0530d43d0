/**
 * @module ingest/convos/companions
 * Files that belong to a conversation without being one, judged by path or by a folder's names: a leaf
 * (no imports), asked of every walked file, so that a re-mine of unchanged files loads no detector.
 */

/**
 * True for files that belong to a conversation but are not one: Claude Code tool-result sidecars
 * (`…/tool-results/…`, read through `resolveSidecar`), session-memory files and subagent
 * `.meta.json` files. Miners skip them (they are neither conversations nor project files).
 */
export function isConvoCompanion(path: string): boolean {
  // Asked of every walked file: most paths hold none of the three folder names.
  if (!path.includes('tool-results') && !path.includes('session-memory') && !path.includes('subagents')) return false;
  const p = path.replace(/\\/g, '/');
  return (
    /\/tool-results\//.test(p) || /\/session-memory\//.test(p) || (/\/subagents\//.test(p) && p.endsWith('.meta.json'))
  );
}

/**
 * True when a folder listing is the root of a Slack export (`users.json` and `channels.json`
 * present): its JSON files at the root are metadata, each sub-folder is a channel.
 */
export function isSlackExportRoot(names: readonly string[]): boolean {
  // Asked of every walked folder: only names of 8 to 13 characters can be one of the four.
  let users = false;
  let lists = false;
  for (const n of names) {
    if (n.length < 8 || n.length > 13) continue;
    const l = n.toLowerCase();
    if (l === 'users.json') users = true;
    else if (l === 'channels.json' || l === 'groups.json' || l === 'dms.json') lists = true;
  }
  return users && lists;
}
