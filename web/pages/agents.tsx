/**
 * @module web/pages/agents
 * What agents are given (`/agents?prompt=…`): the wake-up text of a session start, what recall would
 * inject for a typed prompt (memories and drawers, with token counts; nothing is recorded), and the
 * hooks' activity: the latest log lines (archives, failures) and the archive queue.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { Link, navigate } from '../router';
import { Show, num, useLoad } from '../util';

export function AgentsPage(props: { url: URL }) {
  const prompt = props.url.searchParams.get('prompt') ?? '';
  const [typed, setTyped] = useState(prompt);
  const [wake] = useLoad(() => api.wakeUp(), []);
  const [hooks] = useLoad(() => api.hooks(), []);
  const asked = prompt.trim() !== '';
  // Without a prompt there is nothing to load (a null answer would read as "loading…" for ever).
  const [recall] = useLoad(() => (asked ? api.recall(prompt) : Promise.resolve(null)), [prompt]);
  useEffect(() => {
    const t = setTimeout(() => {
      if (typed !== prompt) navigate(`/agents${typed ? `?prompt=${encodeURIComponent(typed)}` : ''}`, true);
    }, 300);
    return () => clearTimeout(t);
  }, [typed]);
  return (
    <div class="cols">
      <section>
        <h2>Wake-up</h2>
        <Show state={wake}>
          {(w) => (
            <>
              <p class="muted">
                wing {w.wing} · {num(w.tokens)} tokens · {w.omitted} left out
              </p>
              <pre class="verbatim">{w.text || '(nothing to wake up with yet)'}</pre>
            </>
          )}
        </Show>
      </section>
      <section>
        <h2>Recall for a prompt</h2>
        <input
          class="wide"
          placeholder="Type a prompt as the agent would receive it…"
          aria-label="prompt"
          value={typed}
          onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
        />
        {!asked && <p class="muted recall-hint">Type a prompt to see what recall would inject.</p>}
        {asked && (
          <Show state={recall}>
            {(r) =>
              r && (
                <>
                  <p class="muted">
                    {num(r.tokens)} tokens · {num(r.bytes)} bytes · selector {r.selector}
                    {r.reason ? ` · ${r.reason}` : ''}
                  </p>
                  <ul class="plain small">
                    {r.memories.map((m) => (
                      <li key={m.file}>
                        memory <Link href={`/memory?name=${encodeURIComponent(m.name)}`}>{m.name}</Link> (
                        {m.type ?? '—'})
                      </li>
                    ))}
                    {r.drawers.map((d) => (
                      <li key={d.id}>
                        drawer <Link href={`/drawer/${d.id}`}>{d.id}</Link> {d.wing}/{d.room}
                      </li>
                    ))}
                  </ul>
                  <pre class="verbatim">{r.text || '(nothing would be injected)'}</pre>
                </>
              )
            }
          </Show>
        )}
      </section>
      <section class="full">
        <h2>Hooks</h2>
        <Show state={hooks}>
          {(h) => (
            <>
              <p class="muted">
                {h.counts.archives} archive lines · {h.counts.failures} failures · {h.counts.warnings} warnings
                {` · queue: ${h.queued.length} waiting, ${h.failed.length} failed`}
                {` · worker ${h.workerRunning ? 'running' : 'idle'}`}
              </p>
              {h.lines.length === 0 ? (
                <p class="muted">No hook activity logged in {h.log}.</p>
              ) : (
                <table class="list small">
                  <thead>
                    <tr>
                      <th>time</th>
                      <th>level</th>
                      <th>event</th>
                      <th>message</th>
                    </tr>
                  </thead>
                  <tbody>
                    {h.lines.map((l, i) => (
                      <tr key={i} class={`lvl-${l.level}`}>
                        <td>{l.t.replace('T', ' ').slice(0, 19)}</td>
                        <td>{l.level}</td>
                        <td>{l.event ?? ''}</td>
                        <td>{l.message}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          )}
        </Show>
      </section>
    </div>
  );
}
