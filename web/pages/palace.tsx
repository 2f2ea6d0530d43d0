/**
 * @module web/pages/palace
 * The palace browser: wings → rooms with drawer counts and text sizes (UTF-8 bytes, e.g. 1.2 MB),
 * and a paged list of a room's drawers (source order, 50 per page) with their sizes.
 * `/` or `/palace?wing=W&room=R&offset=N`.
 */
import type { PalaceNode, PalaceTree } from '../../src/ui/api-types.js';
import { api } from '../api';
import { Link } from '../router';
import { Show, bytes, num, useLoad, where } from '../util';

function href(wing?: string, room?: string, offset?: number): string {
  const p = new URLSearchParams();
  if (wing) p.set('wing', wing);
  if (room) p.set('room', room);
  if (offset) p.set('offset', String(offset));
  const s = p.toString();
  return `/palace${s ? `?${s}` : ''}`;
}

/** A node's drawer count and text size, e.g. `1,204 · 1.2 MB`. */
function Count(props: { node: Pick<PalaceNode, 'drawers' | 'bytes'> }) {
  const { drawers, bytes: b } = props.node;
  return (
    <span class="count" title={`${num(drawers)} drawers, ${num(b)} bytes of text`}>
      {num(drawers)} · {bytes(b)}
    </span>
  );
}

/** The selected wing or room of the tree (the whole palace when none). */
function selected(t: PalaceTree, wing?: string, room?: string): Pick<PalaceNode, 'drawers' | 'bytes'> | undefined {
  if (!wing) return t;
  const w = t.wings.find((x) => x.name === wing);
  return room ? w?.rooms.find((r) => r.name === room) : w;
}

export function PalacePage(props: { url: URL }) {
  const wing = props.url.searchParams.get('wing') ?? undefined;
  const room = props.url.searchParams.get('room') ?? undefined;
  const offset = Number(props.url.searchParams.get('offset') ?? 0) || 0;
  const [tree] = useLoad(() => api.palace(), []);
  const [page] = useLoad(() => api.drawers({ wing, room, offset, limit: 50 }), [wing, room, offset]);
  const size = tree.data ? selected(tree.data, wing, room)?.bytes : undefined;
  return (
    <div class="split">
      <nav class="tree" aria-label="wings and rooms">
        <Show state={tree}>
          {(t) => (
            <>
              <Link href={href()} class={!wing ? 'active' : ''}>
                all wings <Count node={t} />
              </Link>
              {t.wings.length === 0 && <p class="muted">Nothing mined yet: run `loci mine &lt;folder&gt;`.</p>}
              <ul>
                {t.wings.map((w) => (
                  <li key={w.name}>
                    <Link href={href(w.name)} class={wing === w.name && !room ? 'active wing' : 'wing'}>
                      {w.name} <Count node={w} />
                    </Link>
                    {wing === w.name && (
                      <ul>
                        {w.rooms.map((r) => (
                          <li key={r.name}>
                            <Link href={href(w.name, r.name)} class={room === r.name ? 'active' : ''}>
                              {r.name} <Count node={r} />
                            </Link>
                          </li>
                        ))}
                      </ul>
                    )}
                  </li>
                ))}
              </ul>
            </>
          )}
        </Show>
      </nav>
      <section class="main">
        <h1>{room ? `${wing} / ${room}` : (wing ?? 'All drawers')}</h1>
        <Show state={page}>
          {(p) => (
            <>
              <p class="muted">
                {num(p.total)} drawers
                {size !== undefined && <span class="size"> · {bytes(size)} of text</span>}
                {p.total ? ` · ${num(p.offset + 1)}–${num(p.offset + p.drawers.length)}` : ''}
              </p>
              <table class="list">
                <thead>
                  <tr>
                    <th>drawer</th>
                    <th>where</th>
                    <th>date</th>
                    <th class="num">size</th>
                  </tr>
                </thead>
                <tbody>
                  {p.drawers.map((d) => (
                    <tr key={d.id}>
                      <td>
                        <Link href={`/drawer/${d.id}`}>{d.preview || '(empty)'}</Link>
                        <div class="muted small">{d.source ?? ''}</div>
                      </td>
                      <td class="small">{where(d)}</td>
                      <td class="small">{(d.contentDate ?? d.filedAt).slice(0, 10)}</td>
                      <td class="num small" title={`${num(d.chars)} characters`}>
                        {bytes(d.bytes)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <div class="pager">
                {p.offset > 0 && <Link href={href(wing, room, Math.max(0, p.offset - p.limit))}>← previous</Link>}
                {p.next !== null && <Link href={href(wing, room, p.next)}>next →</Link>}
              </div>
            </>
          )}
        </Show>
      </section>
    </div>
  );
}
