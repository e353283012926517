import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../../..');
const script = join(root, 'scripts/generate-proto-types.mjs');
const generated = join(root, 'src/tfplugin/protocol/tfplugin6.ts');

describe('the generated tfplugin6 message types', () => {
  it('match tfplugin6.proto (regenerate with `node scripts/generate-proto-types.mjs`)', () => {
    // --check exits 1 (execFileSync throws) when the checked-in file is stale.
    expect(() => execFileSync(process.execPath, [script, '--check'], { cwd: root, stdio: 'pipe' })).not.toThrow();
  });

  it('are types only, so that loading the provider never loads them', () => {
    const code = readFileSync(generated, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .split('\n')
      .filter((line) => line.trim() !== '');
    const topLevel = code.filter((line) => !line.startsWith(' ') && line !== '}');
    expect(topLevel.length).toBeGreaterThan(90);
    expect(topLevel.filter((line) => !/^export (interface|type) /.test(line))).toEqual([]);
  });

  it('are imported with `import type` only', () => {
    const files = execFileSync('grep', ['-rlE', "from '[./]+(protocol/)?tfplugin6'", join(root, 'src')], { encoding: 'utf8' }).trim().split('\n');
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const statements = [...readFileSync(file, 'utf8').matchAll(/\b(import|export)\s[^;]*?from '[./]+(?:protocol\/)?tfplugin6'/g)].map((m) => m[0]);
      expect(statements.length).toBeGreaterThan(0);
      expect([file, statements.filter((statement) => !/^import type\s/.test(statement))]).toEqual([file, []]);
    }
  });

  it('declare every method of tfplugin6.Provider with its request and response', () => {
    const text = readFileSync(generated, 'utf8');
    expect(text).toContain('  ApplyResourceChange: { request: ApplyResourceChange_Request; response: ApplyResourceChange_Response };');
    expect(text).toContain('  StopProvider: { request: StopProvider_Request; response: StopProvider_Response };');
  });
});
