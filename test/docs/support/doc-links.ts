import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';

/** Where a reference was found, and what it names. */
export interface Reference {
  file: string;
  line: number;
  target: string;
}

/** Fenced blocks are examples, not links; inline code is blanked to keep the columns. */
function proseLines(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return '';
    }
    return fence === undefined ? line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length)) : '';
  });
}

/**
 * The relative links of a Markdown text, inline (`[text](target)`, images too) and by reference
 * (`[label]: target`), without their `#fragment`. Links with a scheme (`https:`, `mailto:`) and links
 * to a place on the same page are not files.
 */
export function markdownLinks(markdown: string, file: string): Reference[] {
  const links: Reference[] = [];
  proseLines(markdown).forEach((text, index) => {
    const targets = [
      ...[...text.matchAll(/\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)].map((match) => (match[1] ?? match[2])!),
      ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/g)].map((match) => match[1]!),
    ];
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
      links.push({ file, line: index + 1, target: decodeURIComponent(target.replace(/[#?].*$/, '')) });
    }
  });
  return links;
}

/**
 * Every `docs/…` path a text names (a comment citing a record of the decisions folder, a path in prose),
 * from the repository's root. A path inside a URL (`https://host/docs/…`) is someone else's.
 */
export function citedDocsPaths(text: string, file: string): Reference[] {
  const cited: Reference[] = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/(?<![\w./-])docs\/[\w./-]*\w/g)) cited.push({ file, line: index + 1, target: match[0] });
  });
  return cited;
}

async function filesUnder(root: string, folder: string, keep: (name: string) => boolean): Promise<string[]> {
  const start = join(root, folder);
  if (!existsSync(start)) return [];
  const entries = await readdir(start, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && keep(entry.name) && !join(entry.parentPath, entry.name).includes(`${'/'}node_modules${'/'}`))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

const isMarkdown = (name: string) => name.endsWith('.md');
/** Where code comments cite the docs: the product, the tests and scripts, and the rest of the code. */
const SOURCE_FOLDERS = ['src', 'test', 'scripts', 'bench', 'demo', 'stories', 'wordpress', 'packages', '.storybook', '.ci'];
const SOURCE_FILES = ['vite.config.ts', 'eslint.config.js', 'web-test-runner.config.mjs', 'package.json', 'Dockerfile', 'compose.yaml'];
const isSourceText = (name: string) => /\.(ts|mts|mjs|js|sh|json|php|html|css)$|^run$/.test(name);

/** The records of `docs/decisions/`, and the records its index links to. */
export async function decisionRecords(root: string): Promise<{ records: string[]; indexed: string[] }> {
  const records = (await readdir(join(root, 'docs/decisions'))).filter((name) => isMarkdown(name) && name !== 'README.md').sort();
  const index = join(root, 'docs/decisions/README.md');
  const text = existsSync(index) ? await readFile(index, 'utf8') : '';
  const indexed = markdownLinks(text, 'docs/decisions/README.md')
    .map((link) => link.target)
    .filter((target) => isMarkdown(target) && !target.includes('/'));
  return { records, indexed: [...new Set(indexed)].sort() };
}

/**
 * What is wrong with the docs' references, one sentence each: a record missing from
 * `docs/decisions/README.md`, an index line naming no file, a relative link in `README.md` or
 * `docs/**` that points at nothing, and a `docs/…` path cited in those or in the code (`src/`,
 * `test/`, `scripts/`, the other code folders and the root's configs) that does not exist.
 */
export async function docsProblems(root: string): Promise<string[]> {
  const problems: string[] = [];
  const { records, indexed } = await decisionRecords(root);
  if (!existsSync(join(root, 'docs/decisions/README.md'))) problems.push('docs/decisions/README.md, the index of the decision records, is missing');
  for (const record of records) if (!indexed.includes(record)) problems.push(`docs/decisions/${record} is not in the index, docs/decisions/README.md`);
  for (const named of indexed) if (!records.includes(named)) problems.push(`docs/decisions/README.md indexes ${named}, which does not exist`);

  const pages = [...(existsSync(join(root, 'README.md')) ? ['README.md'] : []), ...(await filesUnder(root, 'docs', isMarkdown))];
  for (const page of pages) {
    const text = await readFile(join(root, page), 'utf8');
    for (const link of markdownLinks(text, page)) {
      const path = link.target.startsWith('/') ? join(root, link.target) : resolve(root, dirname(page), link.target);
      if (!existsSync(path)) problems.push(`${page}:${link.line} links to ${link.target}, which does not exist`);
    }
  }
  const sources = [
    ...(await Promise.all(SOURCE_FOLDERS.map((folder) => filesUnder(root, folder, isSourceText)))).flat(),
    ...SOURCE_FILES.filter((file) => existsSync(join(root, file))),
  ];
  for (const file of [...pages, ...sources]) {
    const text = await readFile(join(root, file), 'utf8');
    // A Markdown link's own target was checked above, from its page.
    const cites = isMarkdown(file) ? text.replace(/\]\([^)\n]*\)/g, '](') : text;
    for (const cited of citedDocsPaths(cites, file)) {
      if (!existsSync(join(root, cited.target))) problems.push(`${file}:${cited.line} cites ${cited.target}, which does not exist`);
    }
  }
  return problems;
}
