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

  it('has a page per ephemeral resource with its schema sections', async () => {
    expect(orgadminProvider.ephemeralResources?.length).toBeGreaterThan(0);
    for (const ephemeral of orgadminProvider.ephemeralResources ?? []) {
      const page = await readFile(join(ROOT, 'docs', 'ephemeral-resources', `${shortName(ephemeral.typeName)}.md`), 'utf8');
      expect(page).toContain(`# ${ephemeral.typeName} (Ephemeral Resource)`);
      expect(page).toContain(`ephemeral "${ephemeral.typeName}"`);
      expectPageMatchesSchema(page, ephemeral.typeName, ephemeral.schema);
    }
  });

  it('has a page per function with its signature and one line per argument', async () => {
    expect(orgadminProvider.functions?.length).toBeGreaterThan(0);
    for (const fn of orgadminProvider.functions ?? []) {
      const page = await readFile(join(ROOT, 'docs', 'functions', `${fn.name}.md`), 'utf8');
      expect(page).toContain(`# function: ${fn.name}\n`);
      expect(page).toContain(`provider::orgadmin::${fn.name}(`);
      expect(page).toMatch(new RegExp(`## Signature\\n\\n\`\`\`text\\n${fn.name}\\(`));
      const parameters = [...fn.parameters, ...(fn.variadicParameter ? [fn.variadicParameter] : [])];
      expect([...page.matchAll(/^1\. `([a-z_]+)` \(/gm)].map((m) => m[1])).toEqual(parameters.map((p) => p.name));
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

describe('scripts/generate-docs.mjs rendering', () => {
  /** Runs `code` as an ES module next to the generator, with its exports as `docs`; returns stdout. */
  async function withGenerator(code: string): Promise<string> {
    const script = `import * as docs from ${JSON.stringify(GENERATOR)};\n${code}`;
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
    return stdout;
  }

  it('marks write-only attributes with the Terraform version they need', async () => {
    const page = await withGenerator(`
      const schema = { description: 'A key.', attributes: {
        secret_wo: { type: 'string', optional: true, sensitive: true, writeOnly: true, description: 'The secret.' },
        secret_wo_version: { type: 'number', optional: true, description: 'Bump to send the secret.' },
      } };
      const pages = await docs.renderDocs({ typeName: 'orgadmin', schema, resources: [], dataSources: [] });
      process.stdout.write(pages.get('index.md'));
    `);
    expect(page).toContain('### Optional\n\n> **NOTE**: [Write-only arguments](https://developer.hashicorp.com/terraform/language/resources/ephemeral#write-only-arguments) are supported in Terraform 1.11 and later.\n');
    expect(page).toContain('- `secret_wo` (String, Sensitive, [Write-only](https://developer.hashicorp.com/terraform/language/resources/ephemeral#write-only-arguments)) The secret.');
    expect(page).toContain('- `secret_wo_version` (Number) Bump to send the secret.');
  });

  it('writes a function signature with Terraform\'s type names, nullable and variadic arguments marked', async () => {
    const page = await withGenerator(`
      const fn = { name: 'pick', summary: 'Picks.', description: 'Picks one.', returnType: ['list', 'string'],
        parameters: [{ name: 'from', type: ['map', 'string'], description: 'Where.', allowNull: true }],
        variadicParameter: { name: 'keys', type: 'string', description: 'Which.' } };
      process.stdout.write(docs.renderFunctionPage(fn, 'output "x" {}', 'orgadmin'));
    `);
    expect(page).toContain('page_title: "pick function - orgadmin"');
    expect(page).toContain('```text\npick(from map of string, keys string...) list of string\n```');
    expect(page).toContain('1. `from` (Map of String, Nullable) Where.\n1. `keys` (Variadic, String) Which.');
  });
});
