/**
 * @module dream/project
 * Consolidation for "the project of this working directory", as the CLI and the hook worker run
 * it: the memory directory that `loci memory` would use (`selectMemoryDir`), the project's root
 * (drift and CLAUDE.md), its sessions (transcript folders), the model from `LOCI_LLM_*` and, when
 * a palace is given, narrow archive searches in the project's wing.
 */
import { dirname, join } from 'node:path';
import { processEnv } from '../core/env.js';
import { selectMemoryDir, sanitizeProjectPath, type MemoryDirChoice } from '../memdir/index.js';
import type { Palace } from '../palace/index.js';
import { providerFromEnv, type LlmProvider } from '../providers/index.js';
import { palaceArchive } from './archive.js';
import { runDream } from './run.js';
import type { DreamOptions, DreamResult } from './types.js';

/** Where a project's consolidation works. */
interface DreamTarget {
  choice: MemoryDirChoice;
  dir: string;
  projectRoot: string;
  /**
   * The memory directory's parent, Claude Code's project folder and the folder of this worktree
   * (`<config>/projects/<cwd sanitised>`): where its transcripts (sessions) are.
   */
  transcriptDirs: string[];
}

/** Resolves the memory directory and the session folders of `cwd` (`dir` overrides the directory). */
export function dreamTarget(o: { home: string; cwd: string; env?: NodeJS.ProcessEnv; dir?: string }): DreamTarget {
  const env = o.env ?? processEnv();
  const choice = selectMemoryDir({ cwd: o.cwd, env, lociHome: o.home, ...(o.dir !== undefined ? { dir: o.dir } : {}) });
  const c = choice.claude;
  const dirs = [dirname(choice.dir), c.projectDir, join(c.configDir, 'projects', sanitizeProjectPath(o.cwd))];
  return {
    choice,
    dir: choice.dir,
    projectRoot: choice.projectRoot,
    transcriptDirs: [...new Set(dirs.filter((d): d is string => !!d))],
  };
}

/** The model of `LOCI_LLM_*`, or why there is none (a misconfiguration is a reason, not a throw). */
export function dreamModel(env: NodeJS.ProcessEnv): { llm?: LlmProvider; missing?: string } {
  try {
    const llm = providerFromEnv(env);
    return llm ? { llm } : { missing: 'no model configured (set LOCI_LLM_PROVIDER to anthropic, openai or ollama)' };
  } catch (e) {
    return { missing: `the model from LOCI_LLM_PROVIDER cannot be used: ${(e as Error).message}` };
  }
}

/** Options of {@link dreamProject}. */
interface DreamProjectOptions extends Pick<
  DreamOptions,
  'home' | 'clock' | 'dryRun' | 'force' | 'logger' | 'gates' | 'timeoutMs'
> {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** `--dir`: this memory directory instead of the project's. */
  dir?: string;
  /** An open palace for archive searches. Default none. */
  palace?: Palace;
  /** The model; default from `LOCI_LLM_*` (none when unset). */
  llm?: LlmProvider;
}

/** Runs {@link runDream} for the project of `cwd` (see the module comment). */
export async function dreamProject(o: DreamProjectOptions): Promise<DreamResult & { dir: string }> {
  const env = o.env ?? processEnv();
  const t = dreamTarget({ home: o.home, cwd: o.cwd, env, ...(o.dir !== undefined ? { dir: o.dir } : {}) });
  const m = o.llm ? { llm: o.llm } : dreamModel(env);
  const { cwd: _c, env: _e, dir: _d, palace, llm: _l, ...rest } = o;
  const r = await runDream({
    ...rest,
    dir: t.dir,
    projectRoot: t.projectRoot,
    transcriptDirs: t.transcriptDirs,
    env,
    ...(m.llm ? { llm: m.llm } : {}),
    ...(m.missing ? { llmMissingReason: m.missing } : {}),
    ...(palace && m.llm ? { archive: palaceArchive(palace, o.cwd) } : {}),
  });
  return { ...r, dir: t.dir };
}
