/**
 * @module mcp/project
 * Which project `loci mcp` serves. Claude Code starts MCP servers from wherever it was started
 * (often a sub-folder) but tells hooks and servers the project in `CLAUDE_PROJECT_DIR`; that wins
 * over the working directory for the memory directory, the wake-up's wing and relative paths.
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { readSettings } from '../core/env.js';

/**
 * `CLAUDE_PROJECT_DIR` when it names an existing directory by an absolute path, else `cwd`
 * (resolved). An empty, relative or missing value is ignored.
 */
export function mcpProjectDir(cwd: string, env: NodeJS.ProcessEnv): string {
  const dir = readSettings(env).claudeProjectDir;
  if (dir && isAbsolute(dir)) {
    try {
      if (statSync(dir).isDirectory()) return resolve(dir);
    } catch {
      // gone or unreadable: fall back to the working directory
    }
  }
  return resolve(cwd);
}
