// The README is the front door and docs/ holds the rest: every link resolves (files and #anchors),
// the README stays short and shows the outside-project worker verbatim, docs/configuration.md
// lists every setting the server reads exactly once, and the Layout names every source directory.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = process.cwd();
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const markdown = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Text outside fenced code blocks (links and headings there are not links and headings). */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
const anchors = (path: string) =>
  new Set([...prose(read(path)).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!.replace(/`/g, ''))));

it('keeps the README at 150 lines at most', () => {
  expect(read('README.md').split('\n').length).toBeLessThanOrEqual(151); // the final newline
});

it('resolves every link of README.md and docs/: the file, and the heading an #anchor names', () => {
  const broken: string[] = [];
  for (const file of markdown) {
    for (const [, target] of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue; // http(s), mailto: not checked here
      const [path, anchor] = target!.split('#');
      const into = path ? relative(ROOT, join(ROOT, dirname(file), path)) : file;
      if (!existsSync(join(ROOT, into))) broken.push(`${file}: ${target} (no ${into})`);
      else if (anchor && into.endsWith('.md') && !anchors(into).has(anchor))
        broken.push(`${file}: ${target}`);
    }
  }
  expect(broken).toEqual([]);
});

it('opens with a title and closes every code fence, in README.md and docs/', () => {
  const malformed = markdown.filter((file) => {
    const text = read(file);
    return !text.startsWith('# ') || (text.match(/^```/gm) ?? []).length % 2 !== 0;
  });
  expect(malformed).toEqual([]);
});

it("shows the outside project's worker verbatim", () => {
  expect(read('README.md')).toContain(read('test/release/outside-project/worker.ts').trimEnd());
});

/** Files under `dir` (recursively) ending in `.ts`. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );
}

it('lists every setting the server reads in docs/configuration.md, each once, and nothing else', () => {
  // Read from the environment by src/config and by the modules that read their own (logging,
  // tracing, reconciliation); src/admin-cli's tools (LEDGER_URL, LEDGER_TOKEN) are documented with them.
  const read_ = new Set<string>();
  for (const file of sources('src').filter((f) => !f.startsWith('src/admin-cli/'))) {
    const text = read(file);
    for (const re of [
      /\benv\.([A-Z][A-Z0-9_]*)/g,
      /\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g,
      /\b(?:intVar|onOff)\(\s*env,\s*'([A-Z][A-Z0-9_]*)'/g,
      /\bpositive\(\s*'([A-Z][A-Z0-9_]*)'/g,
    ]) {
      for (const m of text.matchAll(re)) read_.add(m[1]!);
    }
  }
  expect(read_.size).toBeGreaterThan(30);
  const documented = [...read('docs/configuration.md').matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map(
    (m) => m[1]!,
  );
  expect([...documented].sort()).toEqual([...read_].sort());
});

it("names every directory of src/ and packages/ in docs/development.md's Layout", () => {
  const layout = read('docs/development.md').split('## Layout')[1]!;
  const dirs = ['src', 'packages'].flatMap((d) =>
    readdirSync(join(ROOT, d), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `${d}/${e.name}`),
  );
  expect(dirs.filter((d) => !new RegExp(`^${d} `, 'm').test(layout))).toEqual([]);
});
