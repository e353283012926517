/**
 * The provider reference in docs/ is generated from the provider definition by
 * scripts/generate-docs.mjs (`npm run docs`) and checked in. These tests fail when the checked-in
 * pages are stale, and check that the pages say what the schema says.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { orgadminProvider } from '../../src/provider';
import type { Schema } from '../../src/tfplugin/framework/types';

const execFileAsync = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..');
const GENERATOR = join(ROOT, 'scripts', 'generate-docs.mjs');

async function generator(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [GENERATOR, ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

function shortName(typeName: string): string {
  return typeName.replace(/^orgadmin_/, '');
}

/** The attribute names listed under one `### Title` heading of a page. */
function listedUnder(page: string, title: string): string[] {
  const start = page.indexOf(`\n### ${title}\n`);
  if (start === -1) return [];
  const rest = page.slice(start + title.length + 6);
  const end = rest.search(/\n#{2,3} /);
  const section = end === -1 ? rest : rest.slice(0, end);
  return [...section.matchAll(/^- `([a-z_]+)` \(/gm)].map((m) => m[1]!);
}

/** Which heading each attribute of a schema belongs under. */
function expectedSections(schema: Schema): Record<string, string[]> {
  const sections: Record<string, string[]> = { Required: [], Optional: [], 'Read-Only': [] };
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    const title = attribute.required ? 'Required' : attribute.optional ? 'Optional' : 'Read-Only';
    sections[title]!.push(name);
  }
  for (const list of Object.values(sections)) list.sort();
  return sections;
}

function expectPageMatchesSchema(page: string, typeName: string, schema: Schema): void {
  expect(page.startsWith('---\npage_title: ')).toBe(true);
  expect(page).toMatch(/\nsubcategory: ""\ndescription: \|-\n {2}\S/);
  expect(page).toContain('## Example Usage\n\n```terraform\n');
  for (const [title, names] of Object.entries(expectedSections(schema))) {
    expect({ typeName, title, names: listedUnder(page, title) }).toEqual({ typeName, title, names });
  }
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    const firstWords = attribute.description.trim().split(/\s+/).slice(0, 4).join(' ');
    expect(page).toContain(`- \`${name}\` (`);
    expect(page).toContain(firstWords);
  }
}

describe('docs/', () => {
  it('is what npm run docs generates from the provider definition today', async () => {
    const result = await generator('--check');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('has a page per resource with its schema sections and an import section', async () => {
    expect(orgadminProvider.resources.length).toBeGreaterThan(0);
    for (const resource of orgadminProvider.resources) {
      const page = await readFile(join(ROOT, 'docs', 'resources', `${shortName(resource.typeName)}.md`), 'utf8');
      expect(page).toContain(`# ${resource.typeName} (Resource)`);
      expectPageMatchesSchema(page, resource.typeName, resource.schema);
      if (resource.importState) {
        expect(page).toContain('## Import\n');
        expect(page).toContain(`terraform import ${resource.typeName}.`);
      }
    }
  });

  it('has a page per data source with its schema sections', async () => {
    expect(orgadminProvider.dataSources.length).toBeGreaterThan(0);
    for (const dataSource of orgadminProvider.dataSources) {
      const page = await readFile(join(ROOT, 'docs', 'data-sources', `${shortName(dataSource.typeName)}.md`), 'utf8');
      expect(page).toContain(`# ${dataSource.typeName} (Data Source)`);
      expectPageMatchesSchema(page, dataSource.typeName, dataSource.schema);
    }
  });

  it('documents the provider block on the index page', async () => {
    const page = await readFile(join(ROOT, 'docs', 'index.md'), 'utf8');
    expect(page).toContain('# orgadmin Provider');
    expectPageMatchesSchema(page, 'provider', orgadminProvider.schema);
  });
});

describe('scripts/generate-docs.mjs --check', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orgadmin-docs-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names a page that was edited by hand and a page that should not exist', async () => {
    expect((await generator('--out', dir)).code).toBe(0);
    expect((await generator('--check', '--out', dir)).code).toBe(0);

    const page = join(dir, 'resources', 'membership.md');
    await writeFile(page, (await readFile(page, 'utf8')) + '\nA hand edit.\n');
    await writeFile(join(dir, 'data-sources', 'retired.md'), '# gone\n');
    const result = await generator('--check', '--out', dir);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('changed resources/membership.md');
    expect(result.stderr).toContain('extra data-sources/retired.md');
    expect(result.stderr).toContain('npm run docs');
  });
});
