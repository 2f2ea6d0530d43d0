/**
 * @module web/pages/status
 * The palace's health (`/status`): database size, drawers and sources, index health, vectors on or
 * off and why, and drawers per month of content date as an inline SVG bar chart.
 */
import type { StatusView } from '../../src/ui/api-types.js';
import { api } from '../api';
import { Show, bytes, num, useLoad } from '../util';

function Chart(props: { data: StatusView['overTime'] }) {
  const w = 720;
  const h = 180;
  const pad = 28;
  const max = Math.max(1, ...props.data.map((d) => d.drawers));
  const bw = (w - pad - 24) / Math.max(1, props.data.length);
  return (
    <svg class="chart" viewBox={`0 0 ${w} ${h + 24}`} role="img" aria-label="drawers per month">
      <line x1={pad} y1={h} x2={w} y2={h} class="axis-line" />
      <text x={0} y={12} class="tick">
        {num(max)}
      </text>
      {props.data.map((d, i) => {
        const bh = ((h - 16) * d.drawers) / max;
        return (
          <g key={d.month}>
            <rect x={pad + i * bw + 2} y={h - bh} width={Math.max(1, bw - 4)} height={bh} class="bar-rect">
              <title>
                {d.month}: {num(d.drawers)} drawers
              </title>
            </rect>
            {(props.data.length <= 12 || i % Math.ceil(props.data.length / 12) === 0) && (
              <text x={pad + i * bw + bw / 2} y={h + 16} class="tick" text-anchor="middle">
                {d.month}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

export function StatusPage() {
  const [state] = useLoad(() => api.status(), []);
  return (
    <Show state={state}>
      {(s) => (
        <section>
          <h1>Status</h1>
          <div class="cards">
            <div class="card">
              <div class="big">{num(s.status.drawers)}</div>drawers
            </div>
            <div class="card">
              <div class="big">{num(s.status.sources)}</div>sources
            </div>
            <div class="card">
              <div class="big">{bytes(s.status.textBytes.total)}</div>of text
            </div>
            <div class="card">
              <div class="big">{bytes(s.status.bytes)}</div>database
            </div>
            <div class="card">
              <div class="big">{Object.keys(s.status.wings).length}</div>wings
            </div>
          </div>
          <dl class="facts-grid">
            <dt>database</dt>
            <dd>{s.status.database}</dd>
            <dt>schema</dt>
            <dd>version {s.status.schemaVersion}</dd>
            <dt>full-text index</dt>
            <dd class={s.status.index.lexical === 'ok' ? 'ok' : 'error'}>{s.status.index.lexical}</dd>
            <dt>vectors</dt>
            <dd>
              <span class={`badge ${s.vectors.on ? 'on' : 'off'}`}>{s.vectors.on ? 'on' : 'off'}</span>{' '}
              {s.vectors.why.replace(/^(on|off)\b[\s:]*/, '')}
            </dd>
          </dl>
          <h2>Drawers over time</h2>
          {s.overTime.length ? <Chart data={s.overTime} /> : <p class="muted">No dated drawers yet.</p>}
          <p class="muted small">By content date, per month; {num(s.undated)} drawers have no date.</p>
        </section>
      )}
    </Show>
  );
}
