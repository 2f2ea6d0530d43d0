/**
 * @module extract
 * The memory lifecycle's reading side: extraction of memories from a session (`loci extract`, the
 * opt-in hook step) and running session notes. The only door of `src/extract/`.
 */
export { extractMemories, type ExtractOptions, type ExtractResult } from './extract.js';
export { explicitCandidates, MAX_PROMPT_CHARS } from './explicit.js';
export { derivableReason, sessionFiles, type FactFields } from './derivable.js';
export { readSession, findSessionTranscript, latestSessionTranscript, sessionDir } from './session.js';
export type { Candidate, Proposal, Skipped, SessionRead, SessionTurn } from './types.js';
export {
  updateSessionNotes,
  readSessionNotes,
  claudeSessionSummary,
  NOTES_THRESHOLDS,
  NOTES_SECTIONS,
  type SessionNotesOptions,
  type SessionNotesResult,
} from './notes.js';
export { extractForProject, archiveSessionNotes } from './project.js';
