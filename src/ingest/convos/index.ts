/**
 * @module ingest/convos
 * The pure conversation layer: format detection, tolerant parsers for every supported transcript
 * format into one normalised model, exchange chunking, halls and rooms, and the incremental
 * readers (byte-offset JSONL lines, Claude Code thread cursor, exchange cursor) that the
 * conversation miner builds on. No I/O: callers read files and pass text or bytes.
 */
export {
  CONVO_FORMATS,
  type ConvoFormat,
  type ConvoMessage,
  type Conversation,
  type ExchangeMode,
  type ParseOptions,
  type ParseResult,
  type ExchangeChunk,
  type ChunkOptions,
} from './types.js';
export {
  detectFormat,
  detectFormatPastHugeLine,
  isConvoCompanion,
  isSlackExportRoot,
  DETECT_HEAD_CHARS,
} from './detect.js';
export { parseConversations } from './parse.js';
export { parseSlackChannel, slackUsersFromJson, type SlackDayFile } from './parse-slack.js';
export {
  chunkExchanges,
  groupExchanges,
  renderMessages,
  advanceExchanges,
  newExchangeCursor,
  type ExchangeCursor,
} from './exchanges.js';
export { splitText } from './split.js';
export { classifyHall, hallScores } from './hall.js';
export { wordTokens, expandPhrase, PhraseMatcher } from './phrases.js';
export { roomForConversation, roomForText } from './room.js';
export { readCompleteLines } from './jsonl.js';
export { advanceClaudeCodeThread, type ClaudeCodeThreadState, type ClaudeAdvance } from './claude-incremental.js';
export { CLAUDE_METADATA_TYPES, type ClaudeFacts } from './claude-scan.js';
export type { ThreadNode } from './claude-thread.js';
export { stripNoise } from './noise.js';
