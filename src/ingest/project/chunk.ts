/**
 * @module ingest/project/chunk
 * The structural chunker: segment (markdown / code / text) → open or cut oversize blocks → pack
 * blocks up to targetChars, preferring the strongest boundary → merge tiny chunks → verbatim chunks
 * with exact 1-based line ranges.
 */
import { resolveChunkOptions, type Chunk, type ChunkOptions, type Piece } from './chunk-types.js';
import { segmentCode } from './code.js';
import { cutLines } from './cut.js';
import { codeProfile, isMarkdownLanguage, languageFor } from './language.js';
import { buildLines, type LineTable } from './lines.js';
import { markdownQuality, segmentMarkdown } from './markdown.js';

const NON_SPACE = /\S/;

/** A chunk range before it becomes a {@link Chunk}. */
interface Range {
  s: number;
  e: number;
  head: string | undefined;
  c0?: number | undefined;
  c1?: number | undefined;
}

/**
 * Packs pieces into chunk ranges. A chunk grows piece by piece while it stays within targetChars;
 * a section start (markdown heading) closes it once it is past half of targetChars. When the next
 * piece does not fit, the chunk is closed before the strongest boundary among its pieces that keeps
 * it at least half of targetChars (latest on ties). Solo pieces stand alone.
 */
function pack(lt: LineTable, pieces: readonly Piece[], target: number): Range[] {
  const { start, end } = lt;
  const out: Range[] = [];
  const size = (a: number, b: number): number => end[pieces[b]!.e]! - start[pieces[a]!.s]!;
  let a = 0;
  while (a < pieces.length) {
    const pa = pieces[a]!;
    if (pa.solo) {
      out.push({ s: pa.s, e: pa.e, head: pa.head, c0: pa.c0, c1: pa.c1 });
      a++;
      continue;
    }
    let k = a;
    let overflow = false;
    while (k + 1 < pieces.length) {
      const nx = pieces[k + 1]!;
      if (nx.solo) break;
      if (size(a, k + 1) > target) {
        overflow = true;
        break;
      }
      if (nx.sec && size(a, k) * 2 >= target) break;
      k++;
    }
    if (overflow) {
      let best = k + 1;
      for (let j = k; j > a; j--) {
        if (size(a, j - 1) * 2 < target) break;
        if (pieces[j]!.q > pieces[best]!.q) best = j;
      }
      k = best - 1;
    }
    out.push({ s: pa.s, e: pieces[k]!.e, head: pa.head });
    a = k + 1;
  }
  return out;
}

/**
 * Merges ranges smaller than minChars into the previous one (the first into the next), as long as
 * the result stays within maxChars + minChars; parts of one line never merge with other ranges.
 */
function mergeSmall(lt: LineTable, ranges: Range[], o: Required<ChunkOptions>): Range[] {
  const { start, end } = lt;
  const size = (r: Range): number => end[r.e]! - start[r.s]!;
  const limit = o.maxChars + o.minChars;
  const out: Range[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last !== undefined && r.c0 === undefined && last.c0 === undefined) {
      const merged = end[Math.max(last.e, r.e)]! - start[last.s]!;
      if (merged <= limit && (size(r) < o.minChars || (out.length === 1 && size(last) < o.minChars))) {
        last.e = Math.max(last.e, r.e);
        continue;
      }
    }
    out.push(r);
  }
  return out;
}

/**
 * Cuts a document into chunks by structure, never by blind fixed windows.
 *
 * - Markdown (`.md .mdx .markdown .rst`, and `.txt`/unknown files that have headings): split at ATX
 *   and setext headings (rst: underlined/overlined titles); a heading stays with the block below it;
 *   paragraphs are the unit inside a section; fenced code blocks and front matter are never cut
 *   unless larger than maxChars; `heading` carries the heading path ("Install › Offline").
 * - Code (TypeScript/JavaScript, Python, Go, Rust, Java, C#, C/C++, Kotlin, Swift, PHP, Ruby, shell,
 *   YAML, JSON, SQL, HTML…, see `languageFor`): split at top-level declarations found by bracket depth
 *   (C-like) or indentation (Python, Ruby, YAML…), skipping strings and comments; comments and
 *   decorators directly above a declaration stay with it; a declaration over maxChars is opened
 *   into its members (methods, statements) before anything is cut by lines.
 * - Plain text: blank-line paragraphs; a huge paragraph is cut at sentence-ending lines, then line
 *   ends, then inside an overlong line at sentence ends, spaces, anywhere.
 *
 * Small blocks are packed up to `targetChars`; a leaf block over `maxChars` is cut at its best
 * boundary with `overlapChars` of overlap. Chunk text is always verbatim (see {@link Chunk.text}).
 * Empty or whitespace-only input gives []. Lines end at `\n` or `\r\n`; a lone `\r` is not a line end.
 *
 * @param rel the file's relative path; only its name is used (to pick the segmenter)
 * @throws LociError INVALID_ARGUMENT when an option is out of range (see {@link ChunkOptions})
 */
export function chunkDocument(rel: string, text: string, opts?: ChunkOptions): Chunk[] {
  const o = resolveChunkOptions(opts);
  if (!NON_SPACE.test(text)) return [];
  const lt = buildLines(text);
  const language = languageFor(rel);
  const profile = codeProfile(language);
  let kind: Chunk['kind'];
  let pieces: Piece[];
  if (profile !== undefined) {
    kind = 'code';
    pieces = segmentCode(lt, profile, o);
  } else {
    const md = segmentMarkdown(lt, language === 'restructuredtext');
    kind = isMarkdownLanguage(language) || md.headings > 0 ? 'markdown' : 'text';
    pieces = [];
    const quality = markdownQuality(lt, md.fenced);
    for (const u of md.units) {
      if (lt.end[u.e]! - lt.start[u.s]! <= o.maxChars) pieces.push(u);
      else cutLines(lt, u.s, u.e, quality, o, u.head, pieces);
    }
  }
  const ranges = mergeSmall(lt, pack(lt, pieces, o.targetChars), o);
  const chunks: Chunk[] = [];
  for (const r of ranges) {
    const c: Chunk = {
      index: chunks.length,
      text: r.c0 === undefined ? text.slice(lt.start[r.s], lt.end[r.e]) : text.slice(r.c0, r.c1),
      lineStart: r.s + 1,
      lineEnd: r.e + 1,
      kind,
    };
    if (kind === 'markdown' && r.head !== undefined && r.head !== '') c.heading = r.head;
    if (r.c0 !== undefined) {
      c.colStart = r.c0 - lt.start[r.s]!;
      c.colEnd = r.c1! - lt.start[r.s]!;
    }
    chunks.push(c);
  }
  return chunks;
}
