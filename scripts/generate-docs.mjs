#!/usr/bin/env node
/**
 * Generates the provider's reference documentation in the Terraform registry layout from the
 * provider definition itself (`orgadminProvider` in src/provider), so the docs can never describe
 * an attribute the provider does not have:
 *
 *   docs/index.md                         the provider block
 *   docs/resources/<name>.md              one per resource (type name without `orgadmin_`)
 *   docs/data-sources/<name>.md           one per data source
 *   docs/ephemeral-resources/<name>.md    one per ephemeral resource
 *   docs/functions/<name>.md              one per provider-defined function
 *
 * Every page has front matter (`page_title`, `subcategory`, `description`), an "Example Usage"
 * section embedding the HCL under examples/hcl (the terraform-plugin-docs convention:
 * `provider/provider.tf`, `resources/<type>/resource.tf` and `import.sh`,
 * `data-sources/<type>/data-source.tf`, `ephemeral-resources/<type>/ephemeral-resource.tf`,
 * `functions/<name>/function.tf`), a "Schema" section listing Required, Optional and Read-Only
 * attributes with their descriptions (write-only ones marked, with the Terraform version they
 * need), for resources an "Import" section, and for functions "Signature" and "Arguments".
 *
 * The TypeScript sources are loaded through esbuild (bundled in memory, node_modules left
 * external), so no `tsc` build is needed first.
 *
 * Usage:
 *   node scripts/generate-docs.mjs              write docs/ (npm run docs)
 *   node scripts/generate-docs.mjs --check      exit 1 and list the files that differ from a fresh generation
 *   node scripts/generate-docs.mjs --out DIR    write somewhere else
 */
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import Module, { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLES = join(ROOT, 'examples', 'hcl');
/** The generated folders of docs/, besides index.md. */
const PAGE_FOLDERS = ['resources', 'data-sources', 'ephemeral-resources', 'functions'];
/** Where Terraform's documentation explains write-only arguments. */
const WRITE_ONLY_LINK = 'https://developer.hashicorp.com/terraform/language/resources/ephemeral#write-only-arguments';

/** Loads `src/provider/index.ts` (TypeScript) and returns its exports. */
async function loadProviderModule() {
  const result = await build({
    stdin: { contents: "module.exports = require('./src/provider/index.ts');", resolveDir: ROOT, loader: 'js', sourcefile: 'docs-entry.js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  });
  const filename = join(ROOT, 'scripts', '.generate-docs-entry.js');
  const mod = new Module(filename);
  mod.filename = filename;
  mod.paths = Module._nodeModulePaths(join(ROOT, 'scripts'));
  mod.require = createRequire(filename);
  mod._compile(result.outputFiles[0].text, filename);
  return mod.exports;
}

/** Terraform's name for a type, as the registry shows it: `Set of String`, `Map of List of String`. */
export function typeLabel(type) {
  if (type === 'string') return 'String';
  if (type === 'number') return 'Number';
  if (type === 'bool') return 'Boolean';
  if (Array.isArray(type)) {
    const [kind, inner] = type;
    if (kind === 'object') return 'Object';
    const label = { list: 'List', set: 'Set', map: 'Map' }[kind];
    if (label === undefined) throw new Error(`unknown attribute type ${JSON.stringify(type)}`);
    return `${label} of ${typeLabel(inner)}`;
  }
  throw new Error(`unknown attribute type ${JSON.stringify(type)}`);
}

/** Splits a schema's attributes into the registry's three groups, each sorted by name. */
export function groupAttributes(schema) {
  const groups = { Required: [], Optional: [], 'Read-Only': [] };
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    if (attribute.required) groups.Required.push([name, attribute]);
    else if (attribute.optional) groups.Optional.push([name, attribute]);
    else if (attribute.computed) groups['Read-Only'].push([name, attribute]);
    else throw new Error(`attribute ${name} is neither required, optional nor computed`);
  }
  for (const list of Object.values(groups)) list.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return groups;
}

/** The object type inside an attribute type (`object`, or a list, set or map of objects), if any. */
function objectFields(type) {
  if (!Array.isArray(type)) return undefined;
  if (type[0] === 'object') return type[1];
  return objectFields(type[1]);
}

/** Terraform's short name for a type in a function signature: `string`, `list of string`, `object`. */
export function signatureType(type) {
  if (typeof type === 'string') return type;
  const [kind, inner] = type;
  return kind === 'object' ? 'object' : `${kind} of ${signatureType(inner)}`;
}

/** The "## Schema" section, with a "Nested Schema" part for every attribute holding objects. */
function renderSchema(schema) {
  const lines = ['## Schema', ''];
  const nested = [];
  for (const [title, attributes] of Object.entries(groupAttributes(schema))) {
    if (attributes.length === 0) continue;
    lines.push(`### ${title}`, '');
    if (attributes.some(([, attribute]) => attribute.writeOnly)) {
      lines.push(`> **NOTE**: [Write-only arguments](${WRITE_ONLY_LINK}) are supported in Terraform 1.11 and later.`, '');
    }
    for (const [name, attribute] of attributes) {
      const flags = [
        typeLabel(attribute.type),
        ...(attribute.sensitive ? ['Sensitive'] : []),
        ...(attribute.writeOnly ? [`[Write-only](${WRITE_ONLY_LINK})`] : []),
      ].join(', ');
      const description = attribute.description.trim().replace(/\n+/g, ' ');
      const fields = objectFields(attribute.type);
      const link = fields ? ` (see [below for nested schema](#nestedatt--${name}))` : '';
      if (fields) nested.push([name, fields]);
      lines.push(`- \`${name}\` (${flags}) ${description}${link}`);
    }
    lines.push('');
  }
  for (const [name, fields] of nested) {
    // Object types carry no descriptions of their own: the attribute's description explains them.
    lines.push(`<a id="nestedatt--${name}"></a>`, `### Nested Schema for \`${name}\``, '', 'Read-Only:', '');
    for (const field of Object.keys(fields).sort()) lines.push(`- \`${field}\` (${typeLabel(fields[field])})`);
    lines.push('');
  }
  return lines.join('\n');
}

/** YAML front matter; the description is a literal block so that any text is valid YAML. */
function frontMatter(pageTitle, description) {
  const body = description
    .trim()
    .split('\n')
    .map((line) => (line.trim() === '' ? '' : `  ${line}`))
    .join('\n');
  return ['---', `page_title: ${JSON.stringify(pageTitle)}`, 'subcategory: ""', 'description: |-', body, '---', ''].join('\n');
}

/** The first paragraph of a description, for front matter. */
function summary(description) {
  return description.trim().split(/\n\s*\n/)[0];
}

/** Reads an example file, failing with the path to create when it is missing. */
async function example(...segments) {
  const path = join(EXAMPLES, ...segments);
  if (!existsSync(path)) throw new Error(`missing example ${relative(ROOT, path)}: every page embeds one`);
  return (await readFile(path, 'utf8')).trimEnd();
}

/** A fenced code block followed by a blank line. */
function fenced(language, code) {
  return ['```' + language, code, '```', ''].join('\n');
}

/** The page name of a type: `orgadmin_membership` → `membership`. */
function shortName(typeName, providerName) {
  const prefix = `${providerName}_`;
  if (!typeName.startsWith(prefix)) throw new Error(`${typeName} does not start with ${prefix}`);
  return typeName.slice(prefix.length);
}

/**
 * One page in the registry layout: front matter, title, description, the embedded HCL example,
 * the schema, and any `extra` sections (a resource's import syntax).
 */
function renderPage({ pageTitle, heading, schema, exampleCode, extra = [] }) {
  return [
    frontMatter(pageTitle, summary(schema.description)),
    `# ${heading}`,
    '',
    schema.description.trim(),
    '',
    '## Example Usage',
    '',
    fenced('terraform', exampleCode),
    renderSchema(schema),
    ...extra,
  ].join('\n');
}

/** The line of one function argument: `1. \`id\` (String) …`, variadic ones marked. */
function argumentLine(parameter, variadic) {
  const flags = [...(variadic ? ['Variadic'] : []), typeLabel(parameter.type), ...(parameter.allowNull ? ['Nullable'] : [])].join(', ');
  return `1. \`${parameter.name}\` (${flags}) ${parameter.description.trim().replace(/\n+/g, ' ')}`;
}

/**
 * A function's page: its summary as the title's description, the description, the example, the
 * signature as Terraform writes it (`name(id string, type string...) object`) and the arguments.
 */
export function renderFunctionPage(fn, exampleCode, providerName) {
  const params = fn.parameters.map((p) => `${p.name} ${signatureType(p.type)}`);
  if (fn.variadicParameter) params.push(`${fn.variadicParameter.name} ${signatureType(fn.variadicParameter.type)}...`);
  const args = [...fn.parameters.map((p) => argumentLine(p, false)), ...(fn.variadicParameter ? [argumentLine(fn.variadicParameter, true)] : [])];
  return [
    frontMatter(`${fn.name} function - ${providerName}`, fn.summary),
    `# function: ${fn.name}`,
    '',
    ...(fn.deprecationMessage ? [`~> **Deprecated:** ${fn.deprecationMessage}`, ''] : []),
    fn.description.trim(),
    '',
    '## Example Usage',
    '',
    fenced('terraform', exampleCode),
    '## Signature',
    '',
    fenced('text', `${fn.name}(${params.join(', ')}) ${signatureType(fn.returnType)}`),
    '## Arguments',
    '',
    ...(args.length > 0 ? args : ['This function takes no arguments.']),
    '',
  ].join('\n');
}

/** Renders every page: a map of path (relative to docs/) → content. */
export async function renderDocs(provider) {
  const name = provider.typeName;
  const pages = new Map();

  pages.set(
    'index.md',
    renderPage({
      pageTitle: `${name} Provider`,
      heading: `${name} Provider`,
      schema: provider.schema,
      exampleCode: await example('provider', 'provider.tf'),
      extra: [await example('provider', 'guarantees.md'), ''],
    }),
  );

  for (const resource of provider.resources) {
    const type = resource.typeName;
    const extra =
      typeof resource.importState === 'function'
        ? [
            '## Import',
            '',
            'Import is supported using the following syntax:',
            '',
            fenced('shell', await example('resources', type, 'import.sh')),
            'Or, with Terraform 1.5 and later, with an `import` block:',
            '',
            fenced('terraform', await example('resources', type, 'import.tf')),
          ]
        : [];
    pages.set(
      `resources/${shortName(type, name)}.md`,
      renderPage({
        pageTitle: `${type} Resource - ${name}`,
        heading: `${type} (Resource)`,
        schema: resource.schema,
        exampleCode: await example('resources', type, 'resource.tf'),
        extra,
      }),
    );
  }

  // Kinds whose pages are a schema and an example only.
  const schemaPages = [
    { folder: 'data-sources', label: 'Data Source', exampleFile: 'data-source.tf', items: provider.dataSources },
    { folder: 'ephemeral-resources', label: 'Ephemeral Resource', exampleFile: 'ephemeral-resource.tf', items: provider.ephemeralResources ?? [] },
  ];
  for (const { folder, label, exampleFile, items } of schemaPages) {
    for (const item of items) {
      const type = item.typeName;
      pages.set(
        `${folder}/${shortName(type, name)}.md`,
        renderPage({
          pageTitle: `${type} ${label} - ${name}`,
          heading: `${type} (${label})`,
          schema: item.schema,
          exampleCode: await example(folder, type, exampleFile),
        }),
      );
    }
  }

  for (const fn of provider.functions ?? []) {
    pages.set(`functions/${fn.name}.md`, renderFunctionPage(fn, await example('functions', fn.name, 'function.tf'), name));
  }

  // Sections end in blank lines of their own: collapse the runs where two meet.
  for (const [path, content] of pages) pages.set(path, content.replace(/\n{3,}/g, '\n\n').trimEnd() + '\n');
  return pages;
}

/** Every generated page under `dir`: index.md and the pages of {@link PAGE_FOLDERS}. */
async function existingPages(dir) {
  const found = new Map();
  for (const sub of ['', ...PAGE_FOLDERS]) {
    const folder = join(dir, sub);
    if (!existsSync(folder)) continue;
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
      // At the top level only index.md is generated; other pages there (guides) are written by hand.
      if (sub === '' && entry.name !== 'index.md') continue;
      const path = sub === '' ? entry.name : `${sub}/${entry.name}`;
      found.set(path, await readFile(join(folder, entry.name), 'utf8'));
    }
  }
  return found;
}

/** Paths that differ between `expected` and what `dir` holds (missing, changed or extra). */
export async function diffDocs(expected, dir) {
  const actual = await existingPages(dir);
  const problems = [];
  for (const [path, content] of expected) {
    if (!actual.has(path)) problems.push(`missing ${path}`);
    else if (actual.get(path) !== content) problems.push(`changed ${path}`);
  }
  for (const path of actual.keys()) if (!expected.has(path)) problems.push(`extra ${path}`);
  return problems;
}

/** Writes `pages` into `dir`, removing generated pages that no longer exist. */
async function writeDocs(pages, dir) {
  for (const sub of PAGE_FOLDERS) await rm(join(dir, sub), { recursive: true, force: true });
  for (const [path, content] of pages) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

/** The command line; returns the exit code. */
async function main(argv) {
  const check = argv.includes('--check');
  const outIndex = argv.indexOf('--out');
  const unknown = argv.filter((arg, i) => arg !== '--check' && arg !== '--out' && !(outIndex !== -1 && i === outIndex + 1));
  if (unknown.length > 0 || (outIndex !== -1 && argv[outIndex + 1] === undefined)) {
    process.stderr.write('usage: node scripts/generate-docs.mjs [--check] [--out DIR]\n');
    return 2;
  }
  const dir = outIndex === -1 ? join(ROOT, 'docs') : resolve(argv[outIndex + 1]);
  const { orgadminProvider } = await loadProviderModule();
  if (!orgadminProvider) throw new Error('src/provider/index.ts does not export orgadminProvider');
  const pages = await renderDocs(orgadminProvider);
  if (check) {
    const problems = await diffDocs(pages, dir);
    if (problems.length > 0) {
      process.stderr.write(`The docs in ${relative(process.cwd(), dir) || '.'} are stale; run "npm run docs":\n${problems.map((p) => `  ${p}\n`).join('')}`);
      return 1;
    }
    process.stdout.write(`docs are up to date (${pages.size} pages)\n`);
    return 0;
  }
  await writeDocs(pages, dir);
  process.stdout.write(`wrote ${pages.size} pages to ${relative(process.cwd(), dir) || '.'}\n`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`generate-docs: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
