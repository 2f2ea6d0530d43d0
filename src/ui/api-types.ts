/**
 * @module ui/api-types
 * The JSON shapes of `loci ui`'s HTTP API, built from the library's own types. The server
 * (`ui/api.ts`) returns them and the page (`web/`) imports them with `import type`, so both sides
 * are checked by the same compiler: a field renamed in the library breaks the page's type-check.
 */
import type {
  Drawer,
  Entity,
  Fact,
  GraphStats,
  IndexStats,
  Memory,
  MemoryEntry,
  PalaceStatus,
  SearchHit,
  SearchResult,
  WakeUpResult,
} from '../internal.js';
import type { HookActivity } from '../hooks/index.js';

export type { Fact, MemoryEntry };

/** What the page learns at start: the CSRF token to send on writes, the palace and the memory folder. */
export interface SessionInfo {
  home: string;
  version: string;
  /** Memory folder in use (Claude Code's or Loci's) and why. */
  memoryDir: string;
  memoryKind: string;
}

/** One drawer in a listing: its metadata and a one-line preview, never its whole text. */
export type DrawerSummary = Pick<
  Drawer,
  'id' | 'wing' | 'room' | 'hall' | 'source' | 'lineStart' | 'lineEnd' | 'contentDate' | 'filedAt' | 'chunkIndex'
> & {
  /** Characters of the verbatim text. */
  chars: number;
  /** UTF-8 bytes of the verbatim text (the unit of the palace tree's sizes). */
  bytes: number;
  /** The first non-empty line, at most 160 characters. */
  preview: string;
};

/** A wing or room of the palace tree: its drawers and the UTF-8 bytes of their text. */
export interface PalaceNode {
  name: string;
  drawers: number;
  bytes: number;
}

/** `GET /api/palace`: wings and rooms with their drawer counts and text sizes (UTF-8 bytes). */
export interface PalaceTree {
  drawers: number;
  /** UTF-8 bytes of all drawers' text. */
  bytes: number;
  wings: (PalaceNode & { rooms: PalaceNode[] })[];
}

/** `GET /api/drawers?wing&room&offset&limit`: one page of drawers (newest first). */
export interface DrawerPage {
  drawers: DrawerSummary[];
  total: number;
  offset: number;
  limit: number;
  /** Offset of the next page, or null at the end. */
  next: number | null;
}

/** `GET /api/drawer/:id`: the drawer verbatim, its neighbours, its session's timeline and facts. */
export interface DrawerView {
  drawer: Drawer;
  /** ±2 drawers of the same source, in source order (the drawer itself excluded). */
  neighbours: DrawerSummary[];
  /** For a conversation: every exchange part of its source (at most 400), in order. */
  timeline: DrawerSummary[] | null;
  /** Facts read from this drawer. */
  facts: Fact[];
}

/** One search hit as the page shows it: the hit, its excerpt and where the query words fall in it. */
export interface UiHit extends Omit<SearchHit, 'text' | 'context'> {
  /** The excerpt shown (verbatim, at most ~600 characters). */
  excerpt: string;
  /** Matched words in `excerpt`, as [start, end) offsets. */
  spans: [number, number][];
  /** Characters of the whole drawer. */
  chars: number;
}

/** `GET /api/search?q&wing&room&hall&since&until&limit`. */
export interface UiSearchResult extends Omit<SearchResult, 'hits'> {
  hits: UiHit[];
}

/** `GET /api/kg/:entity?asOf`: the entity, its whole timeline, what holds at `asOf`. */
export interface KgView {
  entity: Entity | null;
  timeline: Fact[];
  /** More facts exist beyond the first page. */
  more: boolean;
  /** Ids of the facts valid at `asOf` (now when absent). */
  validIds: string[];
  asOf: string | null;
  /** A one-line preview of each source drawer named by a fact. */
  sources: Record<string, string>;
}

/** `GET /api/kg`: graph counts and a page of entities. */
export interface KgIndex {
  stats: GraphStats;
  entities: Entity[];
  next: string | null;
}

/** The MEMORY.md budget (lines and bytes of what is loaded against 200 / 25 KB). */
export interface MemoryBudget {
  file: string;
  exists: boolean;
  lines: number;
  bytes: number;
  maxLines: number;
  maxBytes: number;
  truncated: boolean;
}

/** `GET /api/memory`. */
export interface MemoryList {
  dir: string;
  kind: string;
  memories: MemoryEntry[];
  budget: MemoryBudget;
  /** Files whose frontmatter cannot be read (skipped). */
  invalid: { path: string; reason: string }[];
}

/** `GET /api/memory/:name`. */
export interface MemoryView {
  memory: Memory;
}

/** `PUT /api/memory/:name` body: the fields the page edits (validated by the library). */
export interface MemoryEditBody {
  description?: string;
  body?: string;
  type?: string;
  privacy?: string;
  pinned?: boolean;
}

/** Answer of a memory write (edit or forget). */
export interface MemoryWriteAnswer {
  memory: MemoryEntry;
  changed: boolean;
  index: IndexStats;
  budget: MemoryBudget;
}

/** `GET /api/agents/wake-up`. */
export type WakeUpView = WakeUpResult;

/** `GET /api/agents/recall?prompt`: what recall would inject for a prompt. */
export interface RecallView {
  text: string;
  tokens: number;
  bytes: number;
  selector: string;
  reason: string | null;
  memories: { file: string; name: string; type: string | null }[];
  drawers: { id: string; wing: string; room: string }[];
}

/** `GET /api/agents/hooks`: the hook log's latest lines and the archive queue. */
export type HookView = HookActivity;

/** `GET /api/status`. */
export interface StatusView {
  status: PalaceStatus;
  /** Vectors on or off, and why. */
  vectors: { on: boolean; why: string };
  /** Drawers per month of content date (oldest first), for the chart; undated drawers counted apart. */
  overTime: { month: string; drawers: number }[];
  undated: number;
}

/** `POST /api/kg/invalidate` body. */
export interface InvalidateBody {
  subject: string;
  predicate: string;
  object: string;
  /** End date (exclusive); default now. */
  ended?: string;
}

/** `POST /api/kg/correct` body: closes the old fact and states the corrected one from `from`. */
export interface CorrectBody extends InvalidateBody {
  /** The corrected object. */
  newObject: string;
  literal?: boolean;
}

/** Every error answer: the catalogue code and the message. */
export interface ApiError {
  error: { code: string; message: string };
}
