/**
 * Comments cite only what a reader of the repository can open.
 *
 * A section citation is `docs/<page>.md "Section"` or `README "Section"` (also `README.md`,
 * `docs/<page>.md's "…"`, `, "…"` or `: "…"` between them, and curly quotes), possibly wrapped
 * over comment lines; `docs/<page>.md#anchor` is a citation by GitHub anchor. `README` means the
 * README.md of the package the citing file is in (packages/<name>/README.md) when there is one,
 * else the repository's; `packages/<name>/README.md` names one directly. The section resolves when
 * it equals a heading of that page outside code fences, or the heading's lead: the text before its
 * first `: `, ` (` or ` — `, after a leading date (`## 2026-12-04: Title (…)` is cited as
 * `"Title"`). Compared in lower case with backticks dropped and every run of characters other
 * than letters and digits read as one space; no other partial match.
 *
 * Code is cited by symbol and file, never by line number (`file.ts:54` drifts with every edit).
 *
 * An issue citation — in a comment of src/, packages/<name>/src, test/ or bench/, or in docs/ and
 * the READMEs (not bench/RESULTS.md, the dated log of past runs) — is `issue 12`, `issue #12`,
 * `issue "Title"`, a bare `#12` (one to three digits after a space or a bracket: `#private`
 * fields and `#default-sender` imports start with a letter; a CSS colour in a comment is written
 * by name), `round two` (words, as issue titles number their rounds) or `item 3`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = process.cwd();
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Files under `dir` (recursively, no node_modules or dist) whose names end in one of `exts`. */
function files(dir: string, exts: readonly string[]): string[] {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'dist') return [];
    if (e.isDirectory()) return files(`${dir}/${e.name}`, exts);
    return exts.some((x) => e.name.endsWith(x)) ? [`${dir}/${e.name}`] : [];
  });
}

/** This file: its doc comment shows the forms it looks for. */
const SELF = 'test/release/citations.unit.spec.ts';
const CODE = ['.ts', '.tsx', '.js', '.mjs', '.cjs'];
const packages = readdirSync(join(ROOT, 'packages'));
const shipped = ['src', ...packages.map((p) => `packages/${p}/src`)].flatMap((d) => files(d, CODE));
const citing = [
  ...shipped,
  ...['test', 'bench', ...packages.map((p) => `packages/${p}/test`)].flatMap((d) =>
    files(d, [...CODE, '.md']),
  ),
  ...files('docs', ['.md']),
  'README.md',
  ...packages.map((p) => `packages/${p}/README.md`).filter((f) => existsSync(join(ROOT, f))),
];

/** Text outside fenced code blocks. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');
const headingsOf = (page: string) => [...prose(read(page)).matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1]!);
/** A heading's lead: without a leading date, up to its first `: `, ` (` or ` — `. */
const lead = (heading: string) => heading.replace(/^\d{4}-\d{2}-\d{2}: /, '').split(/: | \(| — /)[0]!;
const normal = (s: string) =>
  s
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
/** GitHub's anchor of a heading, as test/release/docs.unit.spec.ts computes it. */
const slug = (heading: string) =>
  heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');

/** The page a citation names, as a path from the root. */
function pageOf(cited: string, from: string): string {
  if (!cited.startsWith('README')) return cited; // docs/… or packages/<name>/README.md
  const pkg = /^packages\/([^/]+)\//.exec(from)?.[1];
  const own = pkg ? `packages/${pkg}/README.md` : undefined;
  return own && existsSync(join(ROOT, own)) ? own : 'README.md';
}

/** The file with comment line breaks joined, so a citation wrapped over two lines reads as one. */
const joined = (text: string) => text.replace(/\n[ \t]*(?:\/\/+|\*(?!\/))?[ \t]*/g, ' ');

const SECTION =
  /\b(docs\/[\w-]+\.md|(?:packages\/[\w-]+\/)?README(?:\.md)?)(?:'s|,|:)? ["“]([^"”]{1,120})["”]/g;
const ANCHOR = /\b(docs\/[\w-]+\.md|(?:packages\/[\w-]+\/)?README\.md)#([\w-]+)/g;

it('resolves every `docs/<page>.md "Section"` and `README "Section"` citation to a heading', () => {
  const broken: string[] = [];
  let count = 0;
  for (const file of citing.filter((f) => f !== SELF)) {
    const text = joined(read(file));
    for (const [, cited, section] of text.matchAll(SECTION)) {
      count++;
      const page = pageOf(cited!, file);
      if (!existsSync(join(ROOT, page))) broken.push(`${file}: ${cited} (no such page)`);
      else if (!headingsOf(page).some((h) => [h, lead(h)].some((t) => normal(t) === normal(section!))))
        broken.push(`${file}: ${page} "${section}"`);
    }
    for (const [, cited, anchor] of text.matchAll(ANCHOR)) {
      count++;
      const page = pageOf(cited!, file);
      if (!existsSync(join(ROOT, page))) broken.push(`${file}: ${cited} (no such page)`);
      else if (!headingsOf(page).some((h) => slug(h) === anchor)) broken.push(`${file}: ${page}#${anchor}`);
    }
  }
  expect(count).toBeGreaterThan(100); // the pattern still finds the citations
  expect(broken).toEqual([]);
});

/** The comments of a source file, each with the line it starts on. */
function comments(text: string): { line: number; text: string }[] {
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\w\\])\/\/[^\n]*/g)].map((m) => ({
    line: text.slice(0, m.index).split('\n').length,
    text: m[0],
  }));
}

const ISSUE = [
  /\bissues? ?#? ?\d+\b/i,
  /\bissues? ["“]/i,
  /(?:^|[\s([])#\d{1,3}\b(?![\w-])/,
  /\bround (?:one|two|three|four|five|six|seven|eight|nine|ten)\b/i,
  /\bitems? \d+\b/i,
];

it('cites no issue in code comments, docs/ or the READMEs', () => {
  expect(shipped.length).toBeGreaterThan(300);
  const cites: string[] = [];
  for (const file of citing.filter((f) => f !== SELF && f !== 'bench/RESULTS.md')) {
    const parts = file.endsWith('.md') ? [{ line: 1, text: prose(read(file)) }] : comments(read(file));
    for (const c of parts) {
      c.text.split('\n').forEach((line, i) => {
        if (ISSUE.some((re) => re.test(line))) cites.push(`${file}:${c.line + i}: ${line.trim()}`);
      });
    }
  }
  expect(cites).toEqual([]);
});

it('recognises the forms of an issue citation, and not the look-alikes', () => {
  const cites = (s: string) => ISSUE.some((re) => re.test(s));
  for (const s of ['(issue 12)', 'issue #33 item 1', 'see #33.', '(#7)', 'issue "Security and hardening"']) {
    expect(cites(s)).toBe(true);
  }
  expect(cites('Reliability round two')).toBe(true);
  for (const s of [
    'this.#private',
    "import from '#default-sender'",
    'a round trip',
    'each issue names a field',
  ]) {
    expect(cites(s)).toBe(false);
  }
});

it('cites code by symbol, not by line number, in docs/, the READMEs and the comments of src/', () => {
  const LINE = /\b[\w./-]+\.(?:ts|tsx|js|mjs|cjs):\d+/;
  const cites = [
    ...citing.filter((f) => f.endsWith('.md') && !f.startsWith('bench/') && !f.startsWith('test/')),
    ...shipped,
  ].flatMap((file) => {
    const text = read(file);
    const parts = file.endsWith('.md') ? [prose(text)] : comments(text).map((c) => c.text);
    return parts.flatMap((part) =>
      part
        .split('\n')
        .filter((line) => LINE.test(line))
        .map((l) => `${file}: ${l.trim()}`),
    );
  });
  expect(cites).toEqual([]);
});
