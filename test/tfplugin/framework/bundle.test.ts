/**
 * The provider bundle script (scripts/build-provider.mjs): one self-contained script holding npm's
 * undici (the part the SDK uses), which Bun compiles into the executables.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const REPO = resolve(__dirname, '../../..');

function run(file: string, args: string[], env: NodeJS.ProcessEnv = { PATH: process.env.PATH }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise) =>
    execFile(file, args, { env }, (error, stdout, stderr) =>
      resolvePromise({ code: error ? Number((error as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    ),
  );
}

describe('scripts/build-provider.mjs', () => {
  let dir: string;
  let executable: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bundle-test-'));
    executable = join(dir, 'bundle.js');
    const built = await run(process.execPath, [join(REPO, 'scripts/build-provider.mjs'), join(__dirname, 'fixtures/undici-main.ts'), '--out', executable]);
    if (built.code !== 0) throw new Error(built.stderr);
  }, 60_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes an executable node script that needs nothing outside itself', () => {
    expect(readFileSync(executable, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(executable).mode & 0o111).toBe(0o111);
    expect(readFileSync(executable, 'utf8')).not.toMatch(/require\("(?!node:)[^"]*undici/);
  });

  it("holds undici's dispatcher, whose classes, subclasses and errors behave as undici's own", async () => {
    const result = await run(executable, []);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr.trim())).toEqual({
      status: 200,
      body: 'pong',
      instanceOfAgent: true,
      subclassField: 1,
      errorClass: true,
    });
  });

  it('fails with a clear message for an unknown option', async () => {
    const result = await run(process.execPath, [join(REPO, 'scripts/build-provider.mjs'), '--bogus']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown option --bogus');
  });
});
