/**
 * `import { Organization } from 'orgadmin/constructs'` (and from `orgadmin/cdktn`) must type-check in a cdktf project as
 * `cdktf init` makes it: `"module": "CommonJS"` with TypeScript's classic `node` resolution, which
 * ignores package.json `exports`. `typesVersions` is what maps the subpaths for it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const REPO_ROOT = join(__dirname, '..', '..');

interface PackageJson {
  exports: Record<string, string | { types?: string }>;
  typesVersions?: Record<string, Record<string, string[]>>;
}

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;

/** The subpath exports that declare types: `constructs` → `dist/constructs/index.d.ts`. */
const typedSubpaths = Object.entries(pkg.exports)
  .filter(([subpath, target]) => subpath !== '.' && typeof target === 'object' && target.types !== undefined)
  .map(([subpath, target]) => [subpath.slice(2), (target as { types: string }).types.replace(/^\.\//, '')] as const);

describe('package.json types for the classic node module resolution', () => {
  it('exports orgadmin/constructs (cdktf) and orgadmin/cdktn with types', () => {
    expect(typedSubpaths.map(([subpath]) => subpath)).toEqual(expect.arrayContaining(['constructs', 'cdktn']));
  });

  it.each(typedSubpaths)('resolves orgadmin/%s to the same declarations as its export', (subpath, types) => {
    // A compiler host that knows only the package's files, so the test needs no build.
    const packageDir = '/consumer/node_modules/orgadmin';
    const files = new Map([[`${packageDir}/package.json`, JSON.stringify(pkg)], [`${packageDir}/${types}`, 'export {};']]);
    const host: ts.ModuleResolutionHost = {
      fileExists: (file) => files.has(file),
      readFile: (file) => files.get(file),
      directoryExists: (dir) => [...files.keys()].some((file) => file.startsWith(`${dir}/`)),
    };
    const options: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 };
    const resolved = ts.resolveModuleName(`orgadmin/${subpath}`, '/consumer/main.ts', options, host);
    expect(resolved.resolvedModule?.resolvedFileName).toBe(`${packageDir}/${types}`);
  });
});
