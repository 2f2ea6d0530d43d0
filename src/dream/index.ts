/**
 * @module dream
 * Memory consolidation ("dream"): merges duplicates, dates relative words, deletes what later facts
 * contradict, reconciles memories with CLAUDE.md (never editing it) and keeps MEMORY.md within its
 * limits, behind time, session and lock gates; every run is reported and can be undone. The only
 * door of `src/dream/`. Design: `ARCHITECTURE.md`, "Memory consolidation".
 */
export { runDream, undoDream } from './run.js';
export { palaceArchive } from './archive.js';
export { dreamProject, dreamTarget, dreamModel } from './project.js';
export {
  DREAM_GATES,
  type DreamOptions,
  type DreamResult,
  type DreamChange,
  type UndoResult,
  type ArchiveSearch,
  type ArchiveHit,
  type ClaudeMdText,
  type ClaudeMdConflict,
} from './types.js';
