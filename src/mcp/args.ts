/**
 * @module mcp/args
 * Shared argument schemas and their size limits. Every text argument of every tool has a maximum
 * (advertised as `maxLength` / `maxItems` in the tool's input schema, listed in src/mcp/README.md);
 * a value over it is answered with an `isError` INVALID_ARGUMENT result that quotes only a short
 * prefix of the value. A whole message over {@link MAX_MESSAGE_BYTES} is refused by the transport
 * before parsing (stdio: an `isError` result for a `tools/call`; HTTP: 413).
 */
import * as z from 'zod';
import { STRICT_DATE_EXPECTED, isStrictDate } from '../core/dates.js';

/** Argument size limits, in characters (UTF-16 units) unless stated. */
export const ARG_LIMITS = {
  /** Wing, room, hall, entity, label, topic, project and agent names: 200. */
  name: 200,
  /** Drawer and tunnel ids: 200. */
  id: 200,
  /** Paging cursors: 1000. */
  cursor: 1000,
  /** File and folder paths, drawer sources: 4096. */
  path: 4096,
  /** Search and recall queries: 2000. */
  query: 2000,
  /** Drawer text (`content`): 100,000. */
  content: 100_000,
  /** Dates: 40. */
  date: 40,
  /** Free-form drawer metadata, as JSON: 16,384. */
  metadataJson: 16_384,
} as const;

/** Largest JSON-RPC message either transport accepts, in bytes: 4 MiB. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** A wing / room / hall name (trimmed, 1–200 characters). */
export const nameArg = z.string().trim().min(1).max(ARG_LIMITS.name);
/** A drawer or tunnel id (1–200 characters). */
export const idArg = z.string().min(1).max(ARG_LIMITS.id);
/** A paging cursor (1–1000 characters). */
export const cursorArg = z.string().min(1).max(ARG_LIMITS.cursor);
/** A real calendar date or ISO-8601 date-time (checked strictly: `2025-13-45` is refused). */
export const dateArg = z.string().max(ARG_LIMITS.date).refine(isStrictDate, STRICT_DATE_EXPECTED);
/** Free-form JSON metadata: an object of at most 16 KiB once serialised. */
export const metadataArg = z
  .record(z.string().max(ARG_LIMITS.name), z.unknown())
  .refine(
    (v) => JSON.stringify(v).length <= ARG_LIMITS.metadataJson,
    `a JSON object of at most ${ARG_LIMITS.metadataJson} characters`,
  );
