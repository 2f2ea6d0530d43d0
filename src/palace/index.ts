/**
 * @module palace
 * The palace facade used by every front end: `createPalace` (the composition root, ports injected)
 * and `openPalace` (its SQLite-and-environment preset).
 */
export { openPalace, type OpenPalaceOptions } from './open.js';
export {
  createPalace,
  PALACE_CONFIG_DEFAULTS,
  type PalaceConfig,
  type PalaceDeps,
  type LazyPort,
  type MineOptions,
  type Palace,
  type PalaceStatus,
} from './palace.js';
export { diaryWrite, diaryRead, DIARY_WING, type DiaryEntryInput } from './diary.js';
export { checkName, assertUnderRoots, NAME_MAX_CHARS } from './names.js';
