/**
 * @module mcp
 * The Loci MCP server: the only door of `src/mcp/`, published as the `loci/mcp` subpath (to embed
 * the server). Importing it is free — the SDK, zod and the tool modules are loaded by the first call
 * (dynamic `import()`), so every CLI command other than `loci mcp` stays light. See `README.md` here for the tool list.
 */
import type { HttpServing, ServeHttpOptions } from './http.js';
import type { McpInstallOptions, McpInstallResult } from './install.js';
import type { LociMcpServer, LociMcpServerOptions } from './server.js';
import type { ServeStdioOptions, StdioServing } from './stdio.js';

export type { LociMcpServer, LociMcpServerOptions } from './server.js';
export type { ServeStdioOptions, StdioServing } from './stdio.js';
export type { HttpCaller, HttpRouteContext, HttpServing, ServeHttpOptions } from './http.js';
export type { McpInstallOptions, McpInstallResult, McpInstallScope, McpServerEntry } from './install.js';
export type { AnyTool as McpTool, LociAnnotations as McpToolAnnotations } from './tool.js';

/**
 * Builds the Loci MCP server (an SDK `McpServer` with every tool registered) over an open palace
 * (`palace`, which the caller closes) or the one in `home`. Connect it to any transport, e.g. an
 * `InMemoryTransport` pair in tests.
 */
export async function createLociMcpServer(opts: LociMcpServerOptions = {}): Promise<LociMcpServer> {
  return (await import('./server.js')).createLociMcpServer(opts);
}

/** `loci mcp`: serves over stdio until stdin closes or SIGINT/SIGTERM. */
export async function serveMcpStdio(opts: ServeStdioOptions = {}): Promise<StdioServing> {
  return (await import('./stdio.js')).serveStdio(opts);
}

/** `loci mcp --http`: serves over Streamable HTTP (loopback by default; a token is required elsewhere). */
export async function serveMcpHttp(opts: ServeHttpOptions = {}): Promise<HttpServing> {
  return (await import('./http.js')).serveHttp(opts);
}

/** `loci mcp install`: writes `.mcp.json` (project scope) or returns the `claude mcp add` command. */
export async function installMcpServer(opts: McpInstallOptions = {}): Promise<McpInstallResult> {
  return (await import('./install.js')).installMcp(opts);
}
