/**
 * @module mcp/line-guard
 * Keeps one oversized stdio message from ending the session. The SDK's stdio transport closes
 * itself (and so `loci mcp` exits) when a line grows past its 10 MiB buffer; this guard sits in
 * front of it and drops any line over the limit, keeping only its first and last bytes so the
 * caller can answer the request (its `id` is usually at one end) with a clear error instead.
 * Memory stays bounded by the limit whatever the client sends.
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';

/** What is known about a dropped line. */
export interface OversizedLine {
  /** Its size in bytes (newline excluded). */
  bytes: number;
  /** Its first bytes (up to 512), as text. */
  head: string;
  /** Its last bytes (up to 512), as text. */
  tail: string;
}

const KEEP = 512;

/** `input` with lines over `maxBytes` removed; each removed line is reported to `onOversized`. */
export function guardLines(input: Readable, maxBytes: number, onOversized: (line: OversizedLine) => void): Transform {
  let parts: Buffer[] = [];
  let size = 0;
  let dropping = false;
  let head = Buffer.alloc(0);
  let tail = Buffer.alloc(0);

  const take = (chunk: Buffer): void => {
    size += chunk.length;
    if (!dropping && size > maxBytes) {
      dropping = true;
      head = Buffer.concat([...parts, chunk]).subarray(0, KEEP);
      parts = [];
    }
    if (dropping) tail = Buffer.concat([tail, chunk]).subarray(-KEEP);
    else parts.push(chunk);
  };

  const guard = new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      let start = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
        take(chunk.subarray(start, nl));
        if (dropping) onOversized({ bytes: size, head: head.toString('utf8'), tail: tail.toString('utf8') });
        else this.push(Buffer.concat([...parts, Buffer.from('\n')]));
        parts = [];
        size = 0;
        dropping = false;
        head = tail = Buffer.alloc(0);
        start = nl + 1;
      }
      if (start < chunk.length) take(chunk.subarray(start));
      done();
    },
    flush(done: TransformCallback) {
      if (!dropping && parts.length) this.push(Buffer.concat(parts));
      done();
    },
  });
  input.pipe(guard);
  return guard;
}

/** The JSON-RPC `id` and `method` of a dropped request, read from its ends (undefined when absent). */
export function requestOf(line: OversizedLine): { id: string | number | undefined; method: string | undefined } {
  const ID = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")/;
  const raw = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")\s*\}\s*$/.exec(line.tail)?.[1] ?? ID.exec(line.head)?.[1];
  let id: string | number | undefined;
  try {
    id = raw === undefined ? undefined : (JSON.parse(raw) as string | number);
  } catch {
    id = undefined;
  }
  const method =
    /"method"\s*:\s*"([^"\\]{1,100})"/.exec(line.head)?.[1] ?? /"method"\s*:\s*"([^"\\]{1,100})"/.exec(line.tail)?.[1];
  return { id, method };
}
