/**
 * The floors of `src/` and which may import which. A floor imports only the floors listed for it
 * (npm packages and Node.js built-ins are not checked here): the plugin stack (`src/tfplugin`)
 * imports nothing of orgadmin, so it could be published alone; nothing imports a floor above it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const SRC = resolve(__dirname, '../src');

/** Each floor (a folder of src/, or a file at its root) and the floors it may import. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  api: [],
  client: ['api'],
  service: ['api'],
  tfplugin: [],
  distribution: ['tfplugin'],
  provider: ['api', 'client', 'tfplugin', 'distribution'],
  constructs: ['api', 'distribution'],
  cdktn: ['constructs'],
  cli: ['api', 'client', 'service', 'distribution', 'provider', 'tfplugin'],
  'index.ts': ['client', 'api'],
};

function sourceFiles(dir: string, found: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, found);
    else if (name.endsWith('.ts')) found.push(path);
  }
  return found;
}

/** Relative specifiers of static imports, re-exports, `require()` and `import()` calls. */
function relativeImports(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:\bfrom\s+|\brequire\(\s*|\bimport\(\s*|^import\s+)['"](\.\.?\/[^'"]+)['"]/gm)) found.push(match[1]!);
  return found;
}

function floorOf(path: string): string {
  return relative(SRC, path).split(sep)[0]!;
}

/** Every import that crosses floors, as `file -> target (from floor to floor)`. */
function crossings(): Array<{ file: string; target: string; from: string; to: string }> {
  const result = [];
  for (const file of sourceFiles(SRC)) {
    const from = floorOf(file);
    for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), specifier);
      const to = floorOf(target);
      if (to !== from) result.push({ file: relative(SRC, file), target: relative(SRC, target), from, to });
    }
  }
  return result;
}

describe('module boundaries of src/', () => {
  const all = crossings();

  it('knows every floor of src/', () => {
    const floors = readdirSync(SRC).filter((name) => !name.endsWith('.md'));
    expect(floors.filter((floor) => !(floor in ALLOWED))).toEqual([]);
  });

  it('has each floor import only the floors below it', () => {
    const forbidden = all.filter(({ from, to }) => !(ALLOWED[from] ?? []).includes(to)).map(({ file, target }) => `${file} -> ${target}`);
    expect(forbidden).toEqual([]);
  });

  it('keeps the plugin stack free of orgadmin: src/tfplugin imports nothing else of src/', () => {
    expect(all.filter(({ from }) => from === 'tfplugin')).toEqual([]);
  });

  it('sees the imports it checks (a rule that matches nothing would pass for nothing)', () => {
    expect(all.some(({ from, to }) => from === 'provider' && to === 'tfplugin')).toBe(true);
    expect(all.some(({ from, to }) => from === 'service' && to === 'api')).toBe(true);
  });
});
