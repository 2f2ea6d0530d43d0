/**
 * @module agent
 * The agent loop of `loci chat`, as a library piece: streamed model calls with tool use over the
 * provider port, file tools (read, list, grep, edit with a diff), a confirmed shell tool, Loci's
 * memory and search tools, recall each turn, and the conversation kept by `loci/context`. Saved
 * sessions for `/resume`. This file is the only door into `src/agent/`.
 */
export { createAgent, replayMessages, type Agent, type AgentContext } from './loop.js';
export {
  toolGuidance,
  type AgentEvent,
  type AgentTool,
  type ToolContext,
  type ToolRun,
  type TurnResult,
} from './types.js';
export { FILE_TOOLS, globRegExp } from './tools-fs.js';
export { SHELL_TOOL } from './tools-shell.js';
export { lociTools } from './tools-loci.js';
export { saveChatSession, loadChatSession, listChatSessions } from './sessions.js';
