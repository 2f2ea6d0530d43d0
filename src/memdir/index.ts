/**
 * @module memdir
 * Claude Code–compatible memory files: where they live, topic files, MEMORY.md, privacy, the
 * memory prompt section and the CLAUDE.md chain. The only door of `src/memdir/`.
 */
export {
  MEMORY_TYPES,
  MEMORY_LIMITS,
  INDEX_FILE,
  isMemoryType,
  isPrivacy,
  type MemoryType,
  type Privacy,
  type MemoryEntry,
  type Memory,
} from './types.js';
export { slugify, slugifyName, topicFileName, isReservedSlug, MAX_SLUG_LENGTH } from './slug.js';
export { splitFrontmatter, joinFrontmatter, type SplitFile } from './frontmatter.js';
export {
  parseTopicFile,
  isTeamMemory,
  renderNewTopicFile,
  applyTopicPatch,
  withWhyHow,
  NOT_RECORDED,
  type TopicFields,
  type TopicPatch,
} from './topic-file.js';
export { normalizeRemoteUrl, findGit, type GitInfo } from '../core/git.js';
export {
  resolveClaudeMemoryDir,
  sanitizeProjectPath,
  lociProjectId,
  selectMemoryDir,
  type ResolveOptions,
  type SelectOptions,
  type ClaudeMemoryLocation,
  type MemoryDirChoice,
} from './resolve.js';
export {
  listMemories,
  loadMemories,
  readMemoryFile,
  scanTopicFiles,
  invalidMemoryFiles,
  type ListMemoriesOptions,
  type InvalidMemoryFile,
} from './scan.js';
export {
  rebuildIndex,
  buildIndex,
  loadMemoryIndex,
  truncateIndex,
  renderIndexLine,
  type IndexStats,
  type IndexLimits,
} from './index-file.js';
export { defaultPrivacy, checkPrivacy, effectivePrivacy, exportMemories } from './privacy.js';
export {
  addMemory,
  editMemory,
  forgetMemory,
  findMemory,
  getMemory,
  parseMemoryType,
  planAdd,
  planEdit,
  type AddMemoryInput,
  type EditMemoryInput,
  type WriteOptions,
  type WriteResult,
} from './memories.js';
export {
  mergeMemoryDir,
  tidyMemoryDir,
  STALE_TEMP_MS,
  INDEX_REPAIR_GRACE_MS,
  type MergeReport,
  type TidyReport,
} from './open.js';
export { neutraliseLine } from './neutralise.js';
export { memorySystemPrompt } from './prompt.js';
export { loadClaudeMdChain, managedClaudeMdPath, extractImports, CLAUDE_MD_MAX_BYTES } from './claude-md.js';
