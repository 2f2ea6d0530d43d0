/**
 * @module mcp/kg-port
 * What the knowledge-graph and tunnel tools need from the palace, written against the documented
 * `GraphStore` / `TunnelStore` API of `src/kg` (issue 6). Structural on purpose: the MCP server
 * imports only the public library, and the graph is not exported from it yet. When it is, these
 * types become re-exports of the real ones and the tools are registered (see `registry.ts`).
 */

/** A stored fact (subset of `kg` `Fact`). */
export interface KgFact {
  id: string;
  subject: string;
  subjectName: string;
  predicate: string;
  object: string;
  objectName: string;
  literal: boolean;
  validFrom: string | null;
  validTo: string | null;
  recordedAt: string;
  confidence: number;
  /** Drawer ids the fact was read from. */
  sources: string[];
}

/** A stored entity (subset of `kg` `Entity`). */
export interface KgEntity {
  id: string;
  name: string;
  type: string;
  aliases: string[];
  createdAt: string;
  updatedAt: string;
}

/** One end of a tunnel. */
export interface KgRoomRef {
  wing: string;
  room: string;
  drawerId?: string | null;
}

/** A stored explicit tunnel. */
export interface KgTunnel {
  id: string;
  source: KgRoomRef;
  target: KgRoomRef;
  label: string;
  createdAt: string;
}

/** One room reached by a traversal. */
export interface KgTraversalStep {
  wing: string;
  room: string;
  hops: number;
  count: number;
  via: 'start' | 'implicit' | 'explicit';
  from: { wing: string; room: string } | null;
  label?: string;
}

/** The graph and tunnel operations the tools call. */
export interface KgPort {
  graph: {
    addFact(input: {
      subject: string;
      predicate: string;
      object: string;
      literal?: boolean;
      validFrom?: string | null;
      validTo?: string | null;
      confidence?: number;
      sources?: readonly string[];
    }): Promise<KgFact>;
    invalidate(subject: string, predicate: string, object: string, opts?: { ended?: string }): Promise<KgFact[]>;
    query(entity: string, opts?: { asOf?: string; direction?: 'out' | 'in' | 'both'; predicate?: string }): Promise<KgFact[]>;
    timeline(entity: string, opts?: { limit?: number; cursor?: string | null }): Promise<{ items: KgFact[]; nextCursor: string | null }>;
    stats(): Promise<{ entities: number; facts: number; openFacts: number; predicates: Record<string, number> }>;
    entities(opts?: { limit?: number; cursor?: string | null; type?: string; prefix?: string }): Promise<{ items: KgEntity[]; nextCursor: string | null }>;
    resolveEntity(nameOrAlias: string): Promise<KgEntity | undefined>;
  };
  tunnels: {
    create(input: { source: KgRoomRef; target: KgRoomRef; label?: string }): Promise<KgTunnel>;
    list(filter?: { wing?: string; room?: string }): Promise<KgTunnel[]>;
    delete(id: string): Promise<boolean>;
    follow(from: { wing: string; room: string }): Promise<{ tunnel: KgTunnel; to: KgRoomRef }[]>;
  };
  /** Breadth-first walk over implicit (same room name) and explicit tunnels. */
  traverse(start: { wing: string; room: string }, maxHops: number): Promise<KgTraversalStep[]>;
  /** Room names present in several wings. */
  implicitTunnels(): Promise<{ room: string; wings: string[] }[]>;
}
