/**
 * @module ingest/project/room
 * The room of a mined file, from its folder structure alone (no keyword guessing: MemPalace's
 * substring counts put "start" in the "art" room).
 */

/** Folder names that only contain code and say nothing about its topic (compared lower-case). */
const GENERIC_CONTAINERS: readonly string[] = [
  'src',
  'lib',
  'app',
  'apps',
  'packages',
  'pkg',
  'internal',
  'source',
  'sources',
];

const GENERIC = new Set(GENERIC_CONTAINERS);
const MAX_GENERIC_SKIPS = 2;
const MAX_ROOM_CHARS = 40;

/** The room of files at the top level or directly inside generic containers. */
const GENERAL_ROOM = 'general';

/**
 * Normalises a folder name to a room name: Latin diacritics folded, lower-cased, every character
 * outside `[a-z0-9_-]` replaced by `-`, runs of `-` collapsed, `-` trimmed at both ends, at most
 * 40 characters. Returns '' when nothing is left (e.g. a name in a non-Latin script).
 */
function normaliseRoom(name: string): string {
  const folded = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const clean = folded
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
  return clean.slice(0, MAX_ROOM_CHARS).replace(/-+$/, '');
}

/**
 * The room of a file, by this rule:
 * 1. take the folders of `rel` (`/` or `\` separated; the file name itself never counts);
 * 2. skip leading generic containers (`src lib app apps packages pkg internal source sources`,
 *    case-insensitive), at most two of them;
 * 3. the next folder, normalised by {@link normaliseRoom}, is the room;
 * 4. no folder left (a top-level file, or a file directly inside generic containers), or a folder
 *    name that normalises to nothing → `general`.
 *
 * Examples: `src/search/x.ts` → `search`; `packages/core/src/a.ts` → `core`;
 * `src/lib/app/x.ts` → `app` (only two levels are skipped); `src/index.ts` → `general`;
 * `README.md` → `general`; `Docs Ünïcode/a.md` → `docs-unicode`.
 */
export function roomForPath(rel: string): string {
  const parts = rel.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  parts.pop(); // the file name
  let i = 0;
  while (i < parts.length && i < MAX_GENERIC_SKIPS && GENERIC.has(parts[i]!.toLowerCase())) i++;
  const folder = parts[i];
  if (folder === undefined) return GENERAL_ROOM;
  return normaliseRoom(folder) || GENERAL_ROOM;
}
