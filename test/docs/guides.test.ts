/**
 * The hand-written guides sit where a Terraform registry publishes them (docs/guides/, with front
 * matter), nothing hand-written is left among the generated top-level pages, and every relative
 * link of the README and the docs leads to a file and heading that exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const DOCS = join(ROOT, 'docs');

/** Every markdown file under `dir`. */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown file: its headings (fenced code left out) and explicit `<a id="...">`. */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const headings = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1]!));
  const explicit = [...text.matchAll(/<a id="([^"]+)">/g)].map((match) => match[1]!);
  return new Set([...headings, ...explicit]);
}

describe('docs/guides', () => {
  const guides = readdirSync(join(DOCS, 'guides')).filter((name) => name.endsWith('.md'));

  it('holds the CLI, constructs, service and GitOps guides', () => {
    expect(guides).toEqual(expect.arrayContaining(['cli.md', 'constructs.md', 'service.md', 'gitops.md']));
  });

  it.each(['cli.md', 'constructs.md', 'service.md', 'gitops.md'])('%s starts with registry front matter', (name) => {
    const text = readFileSync(join(DOCS, 'guides', name), 'utf8');
    expect(text).toMatch(/^---\npage_title: "[^"\n]+"\nsubcategory: ""\ndescription: \|-\n {2}\S[^\n]*\n---\n\n# /);
  });

  it('leaves only the generated index.md at the top level of docs/ (the registry publishes nothing else there)', () => {
    const topLevel = readdirSync(DOCS).filter((name) => statSync(join(DOCS, name)).isFile());
    expect(topLevel).toEqual(['index.md']);
  });

  it('keeps the section "Deploying with cdktf-cli" in the constructs guide', () => {
    expect(anchors(join(DOCS, 'guides', 'constructs.md'))).toContain('deploying-with-cdktf-cli');
  });

  it('names no design document outside the repository', () => {
    for (const file of [join(ROOT, 'README.md'), ...markdownFiles(DOCS)]) {
      expect({ file: relative(ROOT, file), text: readFileSync(file, 'utf8') }).toEqual({
        file: relative(ROOT, file),
        text: expect.not.stringMatching(/SERVICE_API\.md|CDKTF_NOTES\.md|ARCHITECTURE\.md/),
      });
    }
  });
});

describe('relative links in README.md and docs/', () => {
  const files = [join(ROOT, 'README.md'), ...markdownFiles(DOCS)];
  const links = files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1]!)
      .filter((target) => !/^[a-z]+:/.test(target))
      .map((target) => ({ from: relative(ROOT, file), target })),
  );

  it('finds links to check', () => {
    expect(links.length).toBeGreaterThan(20);
  });

  it.each(links.map((link) => [link.from, link.target]))('%s → %s exists', (from, target) => {
    const [path, anchor] = target.split('#') as [string, string | undefined];
    const file = path === '' ? join(ROOT, from) : resolve(dirname(join(ROOT, from)), path);
    expect(existsSync(file)).toBe(true);
    if (anchor !== undefined && file.endsWith('.md')) expect(anchors(file)).toContain(anchor);
  });
});
