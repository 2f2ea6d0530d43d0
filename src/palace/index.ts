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
  type PalaceInternals,
} from './palace.js';
export type { DiaryEntryInput } from './diary.js';
export { checkName, assertUnderRoots, DIARY_WING } from './names.js';
export type { PalaceGraph } from './graph.js';
