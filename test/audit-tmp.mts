import * as z from 'zod';
import { lociTools } from '../src/mcp/registry.ts';
function walk(s: any, path: string, out: string[]) {
  if (!s || typeof s !== 'object') return;
  if (s.anyOf) s.anyOf.forEach((x: any) => walk(x, path, out));
  if (s.type === 'string' && s.maxLength === undefined && !s.enum && s.const === undefined) out.push(`${path}: string without maxLength`);
  if (s.type === 'string' ) out.push(`   ${path}: ${s.maxLength}`);
  if (s.type === 'array') { if (s.maxItems === undefined) out.push(`${path}: array without maxItems`); walk(s.items, path + '[]', out); }
  if (s.type === 'object') {
    for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, path + '.' + k, out);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') { out.push(`${path}: record (maxProperties ${s.maxProperties})`); walk(s.additionalProperties, path + '.*', out); }
    if (s.propertyNames) walk(s.propertyNames, path + '.<key>', out);
  }
}
for (const t of lociTools({ kg: true })) {
  const js = z.toJSONSchema(z.strictObject(t.input), { io: 'input' });
  const out: string[] = []; walk(js, t.name, out); if (out.length) console.log(out.join('\n'));
}
