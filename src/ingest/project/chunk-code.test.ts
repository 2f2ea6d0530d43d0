/** @module ingest/project/chunk-code.test — structural code chunking across languages. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chunkDocument, type Chunk } from './index.js';
import { checkChunks } from './chunk-invariants.test.js';

const firstLines = (c: Chunk[]): string[] => c.map((x) => x.text.split('\n')[0]!);
/** Options small enough that every declaration of the fixtures becomes its own chunk. */
const ONE_EACH = { targetChars: 10, maxChars: 400, overlapChars: 5, minChars: 0 };

const TS = `import { readFileSync } from 'node:fs';
import type { Options } from './options.js';

/**
 * Reads a file; braces in strings and comments must not count: } } }
 */
export function read(path: string): string {
  const a = "}}}"; const b = '{'; const c = \`\${'}'} {\`;
  const re = /[}{]+/g; // } {
  /* } */
  return readFileSync(path, 'utf8').replace(re, '');
}

@Injectable()
export class Store {
  private items = new Map<string, number>();

  get(key: string): number | undefined {
    return this.items.get(key);
  }
}

export const DEFAULTS: Options = {
  limit: 10,
};

export function last(): void {}
`;

describe('code chunking: TypeScript', () => {
  it('splits at top-level declarations, keeping doc comments and decorators with them', () => {
    const c = chunkDocument('src/x.ts', TS, ONE_EACH);
    assert.deepEqual(firstLines(c), [
      "import { readFileSync } from 'node:fs';",
      "import type { Options } from './options.js';",
      '/**',
      '@Injectable()',
      'export const DEFAULTS: Options = {',
      'export function last(): void {}',
    ]);
    assert.ok(c.every((x) => x.kind === 'code' && x.heading === undefined));
    assert.equal(c[2]!.text.split('\n').at(-1), '}', 'read() ends with its closing brace despite braces in strings');
    checkChunks('src/x.ts', TS, c, { ...ONE_EACH });
  });

  it('packs small declarations together up to targetChars', () => {
    const c = chunkDocument('src/x.ts', TS);
    assert.equal(c.length, 1);
    assert.equal(c[0]!.lineStart, 1);
  });

  it('opens a class larger than maxChars into its methods', () => {
    const methods = Array.from(
      { length: 12 },
      (_, i) =>
        `  /** Method ${i}. */\n  method${i}(x: number): number {\n    const y = x * ${i};\n    return y + ${i};\n  }`,
    );
    const src = `export class Big {\n  private n = 0;\n\n${methods.join('\n\n')}\n}\n`;
    const opts = { targetChars: 200, maxChars: 400, overlapChars: 50, minChars: 0 };
    const c = chunkDocument('big.ts', src, opts);
    assert.ok(c.length >= 3);
    assert.equal(firstLines(c)[0], 'export class Big {');
    for (const x of c.slice(1))
      assert.match(
        x.text.split('\n')[0]!,
        /^ {2}\/\*\* Method \d+\. \*\/$/,
        'later chunks start at a method doc comment',
      );
    assert.equal(c.at(-1)!.text.split('\n').at(-1), '}', 'the closing brace stays with the last method');
    for (let k = 1; k < c.length; k++)
      assert.ok(c[k]!.lineStart > c[k - 1]!.lineEnd, 'structural splits do not overlap');
    checkChunks('big.ts', src, c, opts);
  });

  it('cuts a long function by its statements, and a structureless block by lines with overlap', () => {
    const body = Array.from({ length: 60 }, (_, i) => `  total += compute(${i}, 'value number ${i}');`).join('\n');
    const src = `function long(): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
    const c = chunkDocument('long.js', src, { targetChars: 400, maxChars: 800, overlapChars: 100, minChars: 0 });
    assert.ok(c.length >= 3);
    checkChunks('long.js', src, c, { targetChars: 400, maxChars: 800, overlapChars: 100, minChars: 0 });
  });
});

describe('code chunking: Python', () => {
  const PY = `import os
from typing import Any

CONFIG = {
    "a": 1,
}


@decorator
def first(x: int) -> int:
    """Docstring with a line at column zero:
def not_a_function():
    """
    return x + 1


class Thing:
    """A thing."""

    def method(self) -> None:
        value = call(
1, 2)
        print(value)


# comment that belongs to main
def main() -> None:
    first(1)
`;
  it('splits at functions and classes; decorators and comments stay above', () => {
    const c = chunkDocument('tool.py', PY, ONE_EACH);
    assert.deepEqual(firstLines(c), [
      'import os',
      'from typing import Any',
      'CONFIG = {',
      '@decorator',
      'class Thing:',
      '# comment that belongs to main',
    ]);
    assert.ok(
      c[3]!.text.includes('def not_a_function():') && c[3]!.text.endsWith('return x + 1'),
      'docstring content at column 0 is not a boundary',
    );
    assert.ok(c[4]!.text.endsWith('print(value)'), 'bracket continuation at column 0 is not a boundary');
    checkChunks('tool.py', PY, c, { ...ONE_EACH });
  });

  it('opens a large class into its methods', () => {
    const methods = Array.from(
      { length: 10 },
      (_, i) => `    def m${i}(self, x):\n        """Method ${i}."""\n        return x * ${i} + self.base`,
    ).join('\n\n');
    const src = `class Big:\n    base = 1\n\n${methods}\n`;
    const c = chunkDocument('big.py', src, { targetChars: 150, maxChars: 300, minChars: 0 });
    assert.equal(firstLines(c)[0], 'class Big:');
    for (const x of c.slice(1)) assert.match(x.text.split('\n')[0]!, /^ {4}def m\d+\(self, x\):$/);
  });
});

describe('code chunking: other languages', () => {
  it('Go: functions, with the import block kept whole', () => {
    const go =
      'package main\n\nimport (\n\t"fmt"\n)\n\n// Hello says hi.\nfunc Hello() {\n\tfmt.Println("}")\n}\n\nfunc (s ' +
      '*S) Bye() error {\n\treturn nil\n}\n';
    assert.deepEqual(firstLines(chunkDocument('main.go', go, ONE_EACH)), [
      'package main',
      'import (',
      '// Hello says hi.',
      'func (s *S) Bye() error {',
    ]);
  });

  it('Rust: lifetimes are not strings, attributes stay with their item', () => {
    const rs =
      "fn longest<'a>(x: &'a str, y: &'a str) -> &'a str {\n    if x.len() > y.len() { x } else { y }\n}\n\n" +
      "#[derive(Debug)]\nstruct P {\n    c: char,\n}\n\nfn q() -> char { '{' }\n";
    assert.deepEqual(firstLines(chunkDocument('lib.rs', rs, ONE_EACH)), [
      "fn longest<'a>(x: &'a str, y: &'a str) -> &'a str {",
      '#[derive(Debug)]',
      "fn q() -> char { '{' }",
    ]);
  });

  it('Java: annotations stay with the method when the class is opened', () => {
    const java =
      'public class A {\n' +
      `${Array.from(
        { length: 6 },
        (_, i) =>
          `    @Override\n    public String m${i}() {\n        return "value ${i} with some padding text";\n    }`,
      ).join('\n\n')}\n` +
      '}\n';
    const c = chunkDocument('A.java', java, { targetChars: 100, maxChars: 200, minChars: 0 });
    for (const x of c.slice(1)) assert.equal(x.text.split('\n')[0], '    @Override');
  });

  it('Ruby: def/end blocks, `end` stays with its block', () => {
    const rb = "require 'x'\n\nclass A\n  def a\n    1\n  end\nend\n\ndef b\n  2\nend\n";
    const c = chunkDocument('a.rb', rb, ONE_EACH);
    assert.deepEqual(firstLines(c), ["require 'x'", 'class A', 'def b']);
    assert.ok(c[1]!.text.endsWith('end\nend'));
  });

  it('YAML: top-level keys', () => {
    const y = 'name: ci\non:\n  push: {}\n# the jobs\njobs:\n  test:\n    runs-on: ubuntu\n';
    assert.deepEqual(firstLines(chunkDocument('ci.yml', y, ONE_EACH)), ['name: ci', 'on:', '# the jobs']);
  });

  it('unknown files are chunked as text; Makefile and Dockerfile by name', () => {
    assert.equal(chunkDocument('data.unknownext', 'a b c')[0]!.kind, 'text');
    assert.equal(chunkDocument('Makefile', 'all:\n\tcc x.c\n')[0]!.kind, 'code');
    assert.equal(chunkDocument('docker/Dockerfile', 'FROM node:20\nRUN npm ci\n')[0]!.kind, 'code');
  });
});
