/**
 * @module store/ports
 * The storage ports of Loci. Every backend (in-memory reference, SQLite, later PostgreSQL)
 * implements them and passes the contract suite in `src/testing/store-contract.ts`.
 *
 * Ports are asynchronous so that network backends fit; the SQLite adapter does its work
 * synchronously inside each call. Every method that changes several rows is atomic.
 */

/** What a caller gives to store a drawer. */
export interface DrawerInput {
  /** Stable id. When absent the store derives one from wing, room, source and content. */
  id?: string;
  /** Top-level grouping: a project, a person, an agent. */
  wing: string;
  /** Topic inside a wing. */
  room: string;
  /** Content kind label (facts, events, discoveries, preferences, advice, diary…); null if none. */
  hall?: string | null;
  /** Path or URI the text came from; null for text added directly. */
  source?: string | null;
  /** SHA-256 of the whole source when the drawer was made. */
  sourceHash?: string | null;
  /** Modification time of the source (ms since epoch). */
  sourceMtime?: number | null;
  /** Position of this chunk in its source (0-based). Default 0. */
  chunkIndex?: number;
  /** First line of the chunk in its source (1-based), if known. */
  lineStart?: number | null;
  /** Last line of the chunk in its source (1-based, inclusive), if known. */
  lineEnd?: number | null;
  /** When the content was said or written (ISO-8601), if known. */
  contentDate?: string | null;
  /** Who filed it: `loci-mine`, `mcp`, an agent name. Default `loci`. */
  addedBy?: string;
  /** Free-form JSON metadata (session id, cwd, branch, speaker, exchange id…). */
  metadata?: Record<string, unknown>;
  /** The verbatim text. */
  text: string;
  /**
   * Extra words indexed for search but never shown (e.g. the file path, a speaker name).
   * Optional; tokenised together with `text`.
   */
  indexExtra?: string;
  /**
   * Precomputed `contentHash` (SHA-256 of `text`) and search column
   * (`searchColumn(text + '\n' + indexExtra)`), e.g. from a mining worker, and optionally
   * `metadata` already serialised (`JSON.stringify(metadata)`, so that a SQL adapter does not
   * serialise it again). Adapters trust it; use `prepareDrawer` from the store module to fill it.
   */
  prepared?: { contentHash: string; search: string; metadata?: string };
}

/** A stored drawer. */
export interface Drawer {
  id: string;
  wing: string;
  room: string;
  hall: string | null;
  source: string | null;
  sourceHash: string | null;
  sourceMtime: number | null;
  chunkIndex: number;
  lineStart: number | null;
  lineEnd: number | null;
  contentDate: string | null;
  /** When Loci stored it (ISO-8601 UTC). */
  filedAt: string;
  addedBy: string;
  /** SHA-256 of `text`. */
  contentHash: string;
  metadata: Record<string, unknown>;
  text: string;
}

/** Fields of a drawer that can be changed in place. */
export type DrawerPatch = Partial<
  Pick<DrawerInput, 'wing' | 'room' | 'hall' | 'text' | 'metadata' | 'contentDate' | 'indexExtra'>
>;

/** Filters pushed down into the store. All given conditions must hold. */
export interface DrawerFilter {
  wing?: string | readonly string[];
  room?: string | readonly string[];
  hall?: string | readonly string[];
  /** Exact source, or a prefix when it ends with `*`. */
  source?: string;
  /** Content date at or after (ISO date or date-time). Drawers without a date are excluded. */
  since?: string;
  /** Content date at or before (ISO date or date-time; a bare date includes that whole day). */
  until?: string;
  /** Only these drawer ids. */
  ids?: readonly string[];
}

/** Paging and order for listings. */
export interface ListOptions {
  /** Default 20. */
  limit?: number;
  /** Default 0. */
  offset?: number;
  /** `filed` (newest first, default), `date` (content date, newest first), `source` (source, chunk). */
  order?: 'filed' | 'date' | 'source';
}

/** One lexical (BM25) hit with the fields ranking needs (no text). Higher score is better. */
export interface LexicalHit {
  id: string;
  /** BM25 score (positive, higher is better). */
  score: number;
  wing: string;
  room: string;
  hall: string | null;
  source: string | null;
  chunkIndex: number;
  contentDate: string | null;
}

/** Per-source bookkeeping used by incremental miners (never searchable). */
export interface SourceState {
  /** Absolute path or URI. */
  source: string;
  wing: string;
  /** Which miner owns it: `project`, `convo`, … */
  kind: string;
  /** The folder the source was mined from (used by prune/sync). */
  root: string | null;
  size: number;
  mtimeMs: number;
  /** SHA-256 of the content that was mined. */
  hash: string;
  /** Bytes of the source already committed (append-only sources). */
  offset: number;
  /** SHA-256 of the first `offset` bytes, to detect a rewritten file. */
  prefixHash: string | null;
  /** Fingerprint of the miner settings used; a change forces a re-mine. */
  config: string;
  /** Miner-specific cursor state (JSON). */
  state: Record<string, unknown>;
  minedAt: string;
}

/** The fields of a {@link SourceState} that tell whether a file changed since it was mined. */
export type SourceStamp = Pick<SourceState, 'source' | 'wing' | 'kind' | 'size' | 'mtimeMs' | 'config'>;

/** Result of an atomic source replacement. */
export interface ReplaceResult {
  added: number;
  updated: number;
  removed: number;
  /** Ids of the drawers now belonging to the source, in chunk order. */
  ids: string[];
}

/** The fields of a drawer an incremental consumer (graph extraction) reads from the feed. */
export type FedDrawer = Pick<Drawer, 'id' | 'wing' | 'room' | 'source' | 'contentDate' | 'metadata' | 'text'>;

/** How often one item (a drawer, a memory file) was recalled: bookkeeping, never searchable. */
export interface UsageRecord {
  /** The caller's key of the item, e.g. `drawer:<id>` or `memory:<absolute path>`. */
  item: string;
  /** Times recalled, >= 1. */
  uses: number;
  /** ISO-8601 time of the last use. */
  lastUsed: string;
}

/** Capability flags of an adapter; callers degrade gracefully when one is false. */
export interface StoreCapabilities {
  /** A vector index is available. */
  vectors: boolean;
  /** Several processes can write the same store at once. */
  multiProcess: boolean;
  /** Data survives a restart. */
  persistent: boolean;
}

/** One room's drawers and the size of their text: a row of {@link MemoryStore.roomSizes}. */
export interface RoomSize {
  wing: string;
  room: string;
  /** Drawers in the room (≥ 1). */
  count: number;
  /** Total UTF-8 bytes of the drawers' stored text (≥ 0). */
  bytes: number;
}

/** Drawers, their full-text index and the source manifest. */
export interface MemoryStore {
  readonly kind: string;
  readonly supports: StoreCapabilities;
  /** Creates or upgrades the schema. Idempotent. */
  init(): Promise<void>;
  /** Inserts drawers; a drawer whose id already exists is left as it is. Atomic. */
  put(drawers: readonly DrawerInput[]): Promise<{ added: string[]; existing: string[] }>;
  /** One drawer, or undefined. */
  get(id: string): Promise<Drawer | undefined>;
  /** Several drawers in the order of `ids` (missing ids are skipped). */
  getMany(ids: readonly string[]): Promise<Drawer[]>;
  /** Changes a drawer in place (re-indexing its text). Returns the new drawer or undefined. */
  update(id: string, patch: DrawerPatch): Promise<Drawer | undefined>;
  /** Deletes drawers by id. Returns how many existed. Atomic. */
  delete(ids: readonly string[]): Promise<number>;
  /** A page of drawers matching `filter` plus the total count. */
  list(filter?: DrawerFilter, opts?: ListOptions): Promise<{ drawers: Drawer[]; total: number }>;
  /** Number of drawers matching `filter`. */
  count(filter?: DrawerFilter): Promise<number>;
  /** Counts grouped by a field. */
  countBy(field: 'wing' | 'room' | 'hall', filter?: DrawerFilter): Promise<Record<string, number>>;
  /** Drawer counts per (wing, room), in one pass; ordered by wing, then count descending. */
  countRooms(filter?: DrawerFilter): Promise<{ wing: string; room: string; count: number }[]>;
  /**
   * Drawer counts and text sizes per (wing, room), in one pass (one GROUP BY); ordered as
   * {@link MemoryStore.countRooms}. Sizes are UTF-8 bytes of the stored text (after redaction), the
   * same on every adapter; wing sizes are the sums of their rooms'.
   */
  roomSizes(filter?: DrawerFilter): Promise<RoomSize[]>;
  /** Drawers with exactly this content hash (duplicates check). */
  findByContentHash(hash: string): Promise<Drawer[]>;
  /** Drawers of the same source within ±`n` chunks of `id`, in chunk order (including `id`). */
  neighbours(id: string, n: number): Promise<Drawer[]>;
  /**
   * BM25 over the **whole** corpus for the given query tokens (OR semantics), filters pushed
   * down, best first, at most `limit` hits. Tokens come from `text/queryTokens`.
   */
  searchLexical(tokens: readonly string[], filter: DrawerFilter | undefined, limit: number): Promise<LexicalHit[]>;
  /**
   * Atomically makes `drawers` the content of `state.source`: drawers whose id is unchanged are
   * kept (metadata refreshed), new ones inserted, vanished ones deleted, and the source state
   * written — all in one transaction. With `skipIfHash`, does nothing and returns null when the
   * stored state already has that hash and config (another process got there first).
   */
  replaceSource(
    state: SourceState,
    drawers: readonly DrawerInput[],
    opts?: { skipIfHash?: string },
  ): Promise<ReplaceResult | null>;
  /**
   * Several `replaceSource` calls in **one** transaction (each source still all-or-nothing):
   * the fast path of bulk mining. Results are in input order.
   */
  replaceSources(
    items: readonly { state: SourceState; drawers: readonly DrawerInput[]; skipIfHash?: string }[],
  ): Promise<(ReplaceResult | null)[]>;
  /**
   * Appends drawers to an append-only source and advances its state in one transaction, provided
   * the stored offset still equals `fromOffset` (else returns null: another process appended).
   * A drawer whose id the source already holds is refreshed (wing, room, lines, date, metadata)
   * rather than added; `opts.remove` lists drawer ids of this source deleted in the same
   * transaction (an open exchange replaced by its grown text). Ids of other sources are ignored.
   */
  appendSource(
    state: SourceState,
    drawers: readonly DrawerInput[],
    fromOffset: number,
    opts?: { remove?: readonly string[] },
  ): Promise<{ added: number; updated: number; removed: number; ids: string[] } | null>;
  /** The state of one source. */
  getSource(source: string): Promise<SourceState | undefined>;
  /** Every source state, optionally only those mined from `root` or of a `kind`. */
  listSources(opts?: { root?: string; kind?: string }): Promise<SourceState[]>;
  /**
   * The stamps (no hash, cursor or state) of the source `under` and of every source below it (path
   * starting with `under` and then a slash or a backslash), in any order: what re-mining a tree compares, listed
   * without building a full state per stored file.
   */
  listSourceStamps(under: string): Promise<SourceStamp[]>;
  /** Updates only the bookkeeping of a source (e.g. a touched but unchanged file). */
  touchSource(state: SourceState): Promise<void>;
  /** Deletes a source's drawers and state. Returns the number of drawers removed. Atomic. */
  removeSource(source: string): Promise<number>;
  /**
   * The drawer feed, for consumers that follow new drawers with a high-water mark (graph extraction):
   * every drawer has a position `seq`, increasing in filing order and never reused (an in-place
   * update keeps it). Returns the drawers after position `after` (0: from the first), in order, at
   * most `limit` (default: all), each as its position and id.
   */
  feedAfter(after: number, limit?: number): Promise<{ seq: number; id: string }[]>;
  /** The drawers with `after < seq <= upTo`, in feed order, with the fields extraction reads. */
  feedRange(after: number, upTo: number): Promise<FedDrawer[]>;
  /** A bookkeeping value of the store (e.g. a consumer's high-water mark), or undefined. */
  getMeta(key: string): Promise<string | undefined>;
  /**
   * Compare-and-swap of a bookkeeping value: sets `key` to `value` only if it still holds `expected`
   * (undefined: absent), atomically across processes. Returns whether it was set.
   */
  casMeta(key: string, expected: string | undefined, value: string): Promise<boolean>;
  /**
   * Adds one use to each item key (duplicates in one call count once), last used at `at` (ISO-8601).
   * Best-effort: returns how many were recorded, 0 (never a throw) when another process holds the
   * write lock longer than `waitMs` (default: the store's own busy timeout) or the schema predates
   * usage counts.
   */
  recordUsage(items: readonly string[], at: string, opts?: { waitMs?: number }): Promise<number>;
  /** The usage of the given item keys; never-used keys are absent. */
  readUsage(items: readonly string[]): Promise<UsageRecord[]>;
  /** The most used items whose key starts with `prefix`, most used first (then most recent), at most `limit`. */
  topUsage(prefix: string, limit: number): Promise<UsageRecord[]>;
  /** Storage statistics (bytes, index health) for `status`. */
  stats(): Promise<StoreStats>;
  /** Releases resources. */
  close(): Promise<void>;
  /** Deletes everything. For tests. */
  dangerouslyClearAll(): Promise<void>;
}

/** Storage statistics. */
export interface StoreStats {
  drawers: number;
  sources: number;
  /** Size on disk in bytes (0 for memory). */
  bytes: number;
  /** Schema version. */
  schemaVersion: number;
  /** `ok`, or a description of what is wrong with the full-text index. */
  lexicalIndex: string;
  /** Where the data lives. */
  location: string;
  /** The database engine and its vector mode, when the adapter reports one (PostgreSQL). */
  engine?: string;
}
