// The floor of `loci mcp`: the smallest server on the same SDK — one tool with zod schemas, over
// stdio, no Loci at all. Part of bench/startup.ts, never shipped.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

const s = new McpServer({ name: 'bare', version: '1' });
s.registerTool(
  'loci_status',
  { description: 'status', inputSchema: {}, outputSchema: { ok: z.boolean() } },
  async () => ({ content: [{ type: 'text', text: 'ok' }], structuredContent: { ok: true } }),
);
await s.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
