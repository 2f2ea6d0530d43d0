/**
 * @module mcp/registry
 * Every tool the Loci MCP server offers, in listing order. A family whose capability the palace
 * does not provide is left out rather than registered as a stub.
 */
import type { AnyTool } from './tool.js';
import { palaceTools } from './tools/palace.js';
import { searchTools } from './tools/search.js';
import { drawerTools } from './tools/drawers.js';
import { ingestTools } from './tools/ingest.js';
import { memoryTools } from './tools/memory.js';
import { recallTools } from './tools/recall.js';
import { wakeUpTools } from './tools/wake-up.js';
import { diaryTools } from './tools/diary.js';
import { kgTools } from './tools/kg.js';
import { tunnelTools } from './tools/tunnels.js';

/** What the palace behind the server can do, deciding which families are registered. */
interface Capabilities {
  /** The palace has a knowledge graph and tunnels (`ToolContext.graph`). */
  kg: boolean;
}

/** The tools for the given capabilities, in listing order. */
export function lociTools(caps: Capabilities): AnyTool[] {
  return [
    ...palaceTools,
    ...searchTools,
    ...drawerTools,
    ...ingestTools,
    ...(caps.kg ? [...kgTools, ...tunnelTools] : []),
    ...diaryTools,
    ...memoryTools,
    ...recallTools,
    ...wakeUpTools,
  ];
}
