import { extractFromDrawer } from './src/kg/extract/extract.js';
for (const text of ['Assistant: The API server listens on port 8080 now.', 'Assistant: Uvicorn is serving on 127.0.0.1:8000.', 'Assistant: The dev server started on 0.0.0.0:5173 after the import of `vite`.', 'Assistant: Postgres has default port 5432.', 'Assistant: We import the support report and export it.']) {
  const r = extractFromDrawer({ id: 'd1', text, contentDate: '2026-01-01T00:00:00Z', wing: 'proj', room: 'general', source: null, metadata: {} });
  console.log(text, JSON.stringify(r.facts.map((f) => `${f.subject} ${f.predicate} ${f.object}`)));
}
