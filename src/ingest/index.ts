/**
 * @module ingest
 * Getting text into the palace: project folders and conversation transcripts.
 */
export { mineProject, type MineProjectOptions, type MineProgress, type MineSummary } from './mine-project.js';
export { wingName, defaultWing } from '../core/project-identity.js';
export { type SkipReason, type SkippedFile } from './skips.js';
export { walkProject } from './project/walk.js';
// The conversation miner loads on first use (see convos-miner/lazy); types are free.
export { mineConversations, mineClaudeCode, mineAuto, parseConversations } from './convos-miner/lazy.js';
export type { MineClaudeOptions } from './mine-convos.js';
export type { MineAutoOptions } from './convos-miner/auto.js';
export { claudeConfigDir, discoverClaudeFiles } from './convos-miner/claude-dirs.js';
export { wingForCwd } from './convos-miner/identity.js';
export {
  CONVO_MINER_VERSION,
  SLOT_STRIDE,
  type MineConvosOptions,
  type MineConvosSummary,
} from './convos-miner/types.js';
export type { ConvoFormat, Conversation, ConvoMessage, ExchangeChunk } from './convos/index.js';
