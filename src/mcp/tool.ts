/**
 * @module mcp/tool
 * The shape of one Loci MCP tool: name, title, model-facing description, zod input and output
 * shapes, honest annotations and a `run` that calls the public library and returns the structured
 * result plus a compact text rendering. Tool modules in `tools/` only build these objects; the
 * server (`server.ts`) registers and dispatches them.
 */
import type * as z from 'zod';
import type { Logger, MemoryDirChoice, Palace, PalaceGraph } from '../internal.js';

/** MCP tool annotations as Loci uses them: every hint is stated, none is left to defaults. */
export interface LociAnnotations {
  /** The tool does not change the palace, memory files or anything else. */
  readOnlyHint: boolean;
  /** The tool may delete or overwrite stored data (only meaningful when not read-only). */
  destructiveHint: boolean;
  /** Calling it again with the same arguments has no further effect. */
  idempotentHint: boolean;
  /** Loci never reaches outside the local palace and files. Always false. */
  openWorldHint: false;
}

/** Annotations of a read: read-only, not destructive, idempotent. */
export const READ: LociAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** Annotations of an additive write (creates or updates, never deletes). */
export const WRITE = (idempotent: boolean): LociAnnotations => ({
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: idempotent,
  openWorldHint: false,
});
/** Annotations of a write that may delete or overwrite stored data. */
export const DESTRUCTIVE = (idempotent: boolean): LociAnnotations => ({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: idempotent,
  openWorldHint: false,
});

/** Options for where memory files live, resolved per call. */
export interface MemoryDirOptions {
  /** Use the user-level memories (they follow the user across projects). Default false. */
  user?: boolean;
}

/** What every tool receives: the palace and the capabilities around it. */
export interface ToolContext {
  palace: Palace;
  logger: Logger;
  /** The working directory the server resolves relative paths and the project from. */
  cwd: string;
  /** Environment used to locate Claude Code's memory directory. */
  env: NodeJS.ProcessEnv;
  /** Picks the memory directory (Claude Code's when it exists here, else Loci's own). */
  memoryDir(opts?: MemoryDirOptions): MemoryDirChoice;
  /**
   * The folders `loci_mine` may read (a path must be one of them or inside one): `mineRoots`
   * of the server options, else `LOCI_MINE_ROOTS`, else the project and Claude Code's folder.
   */
  mineRoots(): Promise<readonly string[]>;
  /** The palace's knowledge graph and tunnels (loaded on first use), when it has them. */
  graph?: () => Promise<PalaceGraph>;
}

/** Per-call extras from the protocol: cancellation and progress. */
export interface CallExtras {
  /** Aborted when the client cancels the request or the connection closes. */
  signal: AbortSignal;
  /** Sends a progress notification when the client asked for them (no-op otherwise). */
  progress(done: number, total: number | undefined, message?: string): void;
}

/** What `run` returns: the structured content (validated against `output`) and its text rendering. */
interface ToolReply<O> {
  data: O;
  text: string;
}

/** A tool definition with typed arguments and result. */
interface ToolDef<I extends z.ZodRawShape, O extends z.ZodRawShape> {
  /** snake_case, prefixed `loci_`. */
  name: `loci_${string}`;
  /** Short human title. */
  title: string;
  /** Written for the model: when to use it, what it returns, what it does not do. */
  description: string;
  /** Arguments (the object is strict: unknown names are rejected with INVALID_ARGUMENT). */
  input: I;
  /** Structured result. */
  output: O;
  annotations: LociAnnotations;
  run(
    ctx: ToolContext,
    args: z.output<z.ZodObject<I>>,
    extras: CallExtras,
  ): Promise<ToolReply<z.output<z.ZodObject<O>>>>;
}

/** A tool with its types erased, as stored in the registry. */
export interface AnyTool {
  name: `loci_${string}`;
  title: string;
  description: string;
  input: z.ZodRawShape;
  output: z.ZodRawShape;
  annotations: LociAnnotations;
  run(ctx: ToolContext, args: never, extras: CallExtras): Promise<ToolReply<unknown>>;
}

/** Declares a tool, checking `run` against the shapes, and erases its types for the registry. */
export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(def: ToolDef<I, O>): AnyTool {
  return def as unknown as AnyTool;
}
