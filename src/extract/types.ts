/**
 * @module extract/types
 * The vocabulary of memory extraction: what a session looks like once read (turns with the time
 * they were said), a candidate memory, and the proposals and report of one run.
 */
import type { MemoryType } from '../memdir/index.js';

/** One turn of a session, as extraction and session notes read it. */
export interface SessionTurn {
  /** 0-based position in the session's main thread (stable across runs of a growing transcript). */
  index: number;
  /** `user`: typed by a person; `assistant`: the agent's prose; `tool`: a tool call or result line. */
  role: 'user' | 'assistant' | 'tool';
  /** Verbatim text (tool calls rendered `[Tool] input`, results `→ output`). */
  text: string;
  /** ISO-8601 time the turn was said, when the transcript records it; else null. */
  at: string | null;
  /** Record id when the format has one (Claude Code uuid). */
  uuid?: string;
}

/** A session read from its transcript. */
export interface SessionRead {
  /** The transcript file. */
  transcript: string;
  /** Session id (Claude Code's `sessionId`, else derived from the file). */
  sessionId: string;
  /** Working directory recorded in the transcript, when any. */
  cwd: string | null;
  /** Every turn of the main thread, oldest first. */
  turns: SessionTurn[];
}

/** A memory a extractor (the model or the explicit-case rules) wants to keep. */
export interface Candidate {
  type: MemoryType;
  /** Short title (slugged for the file name). */
  name: string;
  /** One line used by recall to judge relevance. */
  description: string;
  /** The fact. */
  body: string;
  /** Feedback and project: why it matters. */
  why?: string;
  /** Feedback and project: when and how to apply it. */
  how?: string;
  /** Index of the turn it came from (its time rewrites relative dates). */
  turn: number;
  /** Why it is worth remembering (shown to the user). */
  reason: string;
}

/** One change extraction proposes to a memory folder. */
export interface Proposal {
  /** `add` a new topic file, or `update` an existing one (instead of adding a near-duplicate). */
  action: 'add' | 'update';
  type: MemoryType;
  /** The memory's name (for an update: the existing memory's). */
  name: string;
  description: string;
  /** Topic file relative to the memory folder (for an add: the file it will create). */
  file: string;
  /** What it records and where it came from (turn and time), in one line. */
  reason: string;
}

/** A candidate that was dropped, and why. */
export interface Skipped {
  name: string;
  type: string;
  /** The rule that dropped it: a derivable-from-code-or-git rule, `claude-md`, `duplicate`, `invalid`, `privacy`. */
  rule: string;
  /** One-line explanation. */
  reason: string;
}
