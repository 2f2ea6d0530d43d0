/**
 * @module web/pages/memory
 * Memory files (`/memory?name=<name>`): listed by type with their privacy, the MEMORY.md budget as
 * two gauges (lines and bytes against 200 / 25 KB), and one memory to view, edit or forget. Every
 * write goes through the library (`editMemory`, `forgetMemory`): the same validation, redaction
 * and atomic writes as `loci memory edit|forget`, and MEMORY.md is rebuilt.
 */
import { useEffect, useState } from 'preact/hooks';
import type { MemoryBudget, MemoryEntry } from '../../src/ui/api-types.js';
import { api } from '../api';
import { Link, navigate } from '../router';
import { Show, errorText, num, useLoad } from '../util';

const TYPES = ['user', 'feedback', 'project', 'reference'];

function Gauge(props: { label: string; value: number; max: number; show: (n: number) => string }) {
  const pct = Math.min(100, (100 * props.value) / props.max);
  return (
    <div class="gauge" role="meter" aria-label={props.label} aria-valuenow={props.value} aria-valuemax={props.max}>
      <div class="gauge-label">
        {props.label}: {props.show(props.value)} / {props.show(props.max)}
      </div>
      <div class="gauge-track">
        <div class={`gauge-fill ${pct > 90 ? 'hot' : pct > 70 ? 'warm' : ''}`} style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

function Budget(props: { b: MemoryBudget }) {
  return (
    <div class="budget">
      <h2>MEMORY.md budget</h2>
      <Gauge label="lines" value={props.b.lines} max={props.b.maxLines} show={String} />
      <Gauge label="bytes" value={props.b.bytes} max={props.b.maxBytes} show={num} />
      {props.b.truncated && <p class="error">Over budget: Claude Code loads only the first part.</p>}
    </div>
  );
}

function Editor(props: { name: string; onSaved: () => void }) {
  const [state, reloadMemory] = useLoad(() => api.memory(props.name), [props.name]);
  const [draft, setDraft] = useState<{
    description: string;
    body: string;
    type: string;
    privacy: string;
    pinned: boolean;
  }>();
  const [msg, setMsg] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  useEffect(() => {
    const m = state.data?.memory;
    if (m)
      setDraft({ description: m.description, body: m.body, type: m.type ?? '', privacy: m.privacy, pinned: m.pinned });
  }, [state.data]);
  useEffect(() => {
    setMsg(null);
    setConfirm(false);
  }, [props.name]);
  return (
    <Show state={state}>
      {(v) =>
        draft && (
          <form
            class="editor"
            onSubmit={(e) => {
              e.preventDefault();
              // Only what changed: a file without frontmatter can still have its body edited.
              const m = v.memory;
              api
                .editMemory(props.name, {
                  ...(draft.description !== m.description ? { description: draft.description } : {}),
                  ...(draft.body !== m.body ? { body: draft.body } : {}),
                  ...(draft.type && draft.type !== m.type ? { type: draft.type } : {}),
                  ...(draft.privacy !== m.privacy ? { privacy: draft.privacy } : {}),
                  ...(draft.pinned !== m.pinned ? { pinned: draft.pinned } : {}),
                })
                .then(
                  (r) => {
                    setMsg(r.changed ? `saved ${r.memory.file}` : 'unchanged');
                    props.onSaved();
                    reloadMemory();
                    if (r.memory.name !== props.name)
                      navigate(`/memory?name=${encodeURIComponent(r.memory.name)}`, true);
                  },
                  (err: unknown) => setMsg(errorText(err)),
                );
            }}
          >
            <h2>{v.memory.title}</h2>
            <p class="muted small">{v.memory.path}</p>
            <label>
              description
              <input
                name="description"
                value={draft.description}
                onInput={(e) => setDraft({ ...draft, description: (e.target as HTMLInputElement).value })}
              />
            </label>
            <div class="row">
              <label>
                type
                <select
                  value={draft.type}
                  onChange={(e) => setDraft({ ...draft, type: (e.target as HTMLSelectElement).value })}
                >
                  {TYPES.map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </select>
              </label>
              <label>
                privacy
                <select
                  value={draft.privacy}
                  onChange={(e) => setDraft({ ...draft, privacy: (e.target as HTMLSelectElement).value })}
                >
                  <option>private</option>
                  <option>team</option>
                </select>
              </label>
              <label class="check">
                <input
                  type="checkbox"
                  checked={draft.pinned}
                  onChange={(e) => setDraft({ ...draft, pinned: (e.target as HTMLInputElement).checked })}
                />
                pinned
              </label>
            </div>
            <label>
              body
              <textarea
                name="body"
                rows={12}
                value={draft.body}
                onInput={(e) => setDraft({ ...draft, body: (e.target as HTMLTextAreaElement).value })}
              />
            </label>
            <div class="row">
              <button type="submit" class="primary">
                save
              </button>
              {!confirm ? (
                <button type="button" onClick={() => setConfirm(true)}>
                  forget…
                </button>
              ) : (
                <button
                  type="button"
                  class="danger"
                  onClick={() =>
                    api.forgetMemory(props.name).then(
                      () => {
                        props.onSaved();
                        navigate('/memory');
                      },
                      (err: unknown) => setMsg(errorText(err)),
                    )
                  }
                >
                  really forget {v.memory.name}
                </button>
              )}
              {msg && (
                <span class="status-msg" role="status">
                  {msg}
                </span>
              )}
            </div>
          </form>
        )
      }
    </Show>
  );
}

export function MemoryPage(props: { url: URL }) {
  const name = props.url.searchParams.get('name') ?? undefined;
  const [state, reload] = useLoad(() => api.memories(), []);
  const groups = (list: MemoryEntry[]) =>
    [...TYPES, null].map((t) => ({ type: t, items: list.filter((m) => m.type === t) })).filter((g) => g.items.length);
  return (
    <div class="split">
      <nav class="tree" aria-label="memories">
        <Show state={state}>
          {(l) => (
            <>
              <p class="muted small">
                {l.dir} ({l.kind})
              </p>
              {l.memories.length === 0 && <p class="muted">No memories yet (`loci memory add`).</p>}
              {groups(l.memories).map((g) => (
                <div key={g.type ?? 'untyped'}>
                  <h3>{g.type ?? 'untyped'}</h3>
                  <ul>
                    {g.items.map((m) => (
                      <li key={m.file}>
                        <Link
                          href={`/memory?name=${encodeURIComponent(m.name)}`}
                          class={name === m.name ? 'active' : ''}
                        >
                          {m.pinned ? '★ ' : ''}
                          {m.title}
                          <span class={`badge ${m.privacy}`}>{m.privacy}</span>
                        </Link>
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
              {l.invalid.map((f) => (
                <p class="error small" key={f.path}>
                  skipped {f.path}: {f.reason}
                </p>
              ))}
              <Budget b={l.budget} />
            </>
          )}
        </Show>
      </nav>
      <section class="main">
        {name ? <Editor name={name} onSaved={reload} /> : <p class="muted">Pick a memory to view or edit it.</p>}
      </section>
    </div>
  );
}
