/**
 * @module web/pages/drawer
 * One drawer verbatim (`/drawer/<id>`): source, line range, dates, its neighbours, the facts read
 * from it and, for a conversation, the exchange within its session's timeline.
 */
import { api } from '../api';
import { Link } from '../router';
import { Copy, Show, bytes, day, num, useLoad, where } from '../util';

export function DrawerPage(props: { id: string }) {
  const [state] = useLoad(() => api.drawer(props.id), [props.id]);
  return (
    <Show state={state}>
      {(v) => {
        const d = v.drawer;
        const title = typeof d.metadata.title === 'string' ? d.metadata.title : null;
        return (
          <div class="split">
            <section class="main">
              <h1>
                {d.wing} / {d.room} <Copy text={d.id} />
              </h1>
              {title && <p class="lead">{title}</p>}
              <dl class="facts-grid">
                <dt>source</dt>
                <dd>{d.source ?? '—'}</dd>
                <dt>lines</dt>
                <dd>{d.lineStart != null ? `${d.lineStart}–${d.lineEnd ?? d.lineStart}` : '—'}</dd>
                <dt>date</dt>
                <dd>{day(d.contentDate)}</dd>
                <dt>filed</dt>
                <dd>{d.filedAt.replace('T', ' ').slice(0, 16)}</dd>
                <dt>hall</dt>
                <dd>{d.hall ?? '—'}</dd>
                <dt>size</dt>
                <dd>
                  {bytes(new TextEncoder().encode(d.text).length)} · {num(d.text.length)} characters
                </dd>
              </dl>
              <pre class="verbatim" data-testid="verbatim">
                {d.text}
              </pre>
              {v.facts.length > 0 && (
                <>
                  <h2>Facts read from this drawer</h2>
                  <ul class="plain">
                    {v.facts.map((f) => (
                      <li key={f.id}>
                        <Link href={`/kg/${encodeURIComponent(f.subjectName)}`}>{f.subjectName}</Link>
                        {` ${f.predicate} `}
                        {f.literal ? (
                          f.objectName
                        ) : (
                          <Link href={`/kg/${encodeURIComponent(f.objectName)}`}>{f.objectName}</Link>
                        )}
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </section>
            <aside class="side">
              {v.timeline && (
                <>
                  <h2>Session timeline</h2>
                  <ol class="timeline">
                    {v.timeline.map((t) => (
                      <li key={t.id} class={t.id === d.id ? 'current' : ''}>
                        <span class="muted small">{(t.contentDate ?? '').replace('T', ' ').slice(0, 16)}</span>
                        {t.id === d.id ? (
                          <strong>{t.preview}</strong>
                        ) : (
                          <Link href={`/drawer/${t.id}`}>{t.preview}</Link>
                        )}
                      </li>
                    ))}
                  </ol>
                </>
              )}
              <h2>Neighbours</h2>
              {v.neighbours.length === 0 && <p class="muted">none</p>}
              <ul class="plain">
                {v.neighbours.map((n) => (
                  <li key={n.id}>
                    <Link href={`/drawer/${n.id}`}>{n.preview || n.id}</Link>
                    <div class="muted small">{where(n)}</div>
                  </li>
                ))}
              </ul>
            </aside>
          </div>
        );
      }}
    </Show>
  );
}
