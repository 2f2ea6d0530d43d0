/**
 * @module web/pages/palace
 * The palace browser: wings → rooms with drawer counts, and a paged list of a room's drawers
 * (source order, 50 per page) with their sizes. `/` or `/palace?wing=W&room=R&offset=N`.
 */
import { api } from '../api';
import { Link } from '../router';
import { Show, num, useLoad, where } from '../util';

function href(wing?: string, room?: string, offset?: number): string {
  const p = new URLSearchParams();
  if (wing) p.set('wing', wing);
  if (room) p.set('room', room);
  if (offset) p.set('offset', String(offset));
  const s = p.toString();
  return `/palace${s ? `?${s}` : ''}`;
}

export function PalacePage(props: { url: URL }) {
  const wing = props.url.searchParams.get('wing') ?? undefined;
  const room = props.url.searchParams.get('room') ?? undefined;
  const offset = Number(props.url.searchParams.get('offset') ?? 0) || 0;
  const [tree] = useLoad(() => api.palace(), []);
  const [page] = useLoad(() => api.drawers({ wing, room, offset, limit: 50 }), [wing, room, offset]);
  return (
    <div class="split">
      <nav class="tree" aria-label="wings and rooms">
        <Show state={tree}>
          {(t) => (
            <>
              <Link href={href()} class={!wing ? 'active' : ''}>
                all wings <span class="count">{num(t.drawers)}</span>
              </Link>
              {t.wings.length === 0 && <p class="muted">Nothing mined yet: run `loci mine &lt;folder&gt;`.</p>}
              <ul>
                {t.wings.map((w) => (
                  <li key={w.name}>
                    <Link href={href(w.name)} class={wing === w.name && !room ? 'active wing' : 'wing'}>
                      {w.name} <span class="count">{num(w.drawers)}</span>
                    </Link>
                    {wing === w.name && (
                      <ul>
                        {w.rooms.map((r) => (
                          <li key={r.name}>
                            <Link href={href(w.name, r.name)} class={room === r.name ? 'active' : ''}>
                              {r.name} <span class="count">{num(r.drawers)}</span>
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
                {num(p.total)} drawers · {p.total ? `${num(p.offset + 1)}–${num(p.offset + p.drawers.length)}` : ''}
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
                      <td class="num small">{num(d.chars)} ch</td>
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
