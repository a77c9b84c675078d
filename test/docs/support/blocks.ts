import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../../..');
/** A block that cannot stand alone says so by this comment on the line right before its fence. */
const FRAGMENT = '<!-- fragment -->';
/** A block that goes on from the file's script block before it: checked and run with that one first. */
const CONTINUES = '<!-- continues -->';
/** A TypeScript block the text says is JavaScript too is checked as both. */
const ALSO_JAVASCRIPT = '<!-- also javascript -->';
/** Fragments are kept few: each one is a block nothing checks beyond its syntax. */
export const MOST_FRAGMENTS = 5;

export interface Block {
  file: string;
  line: number;
  lang: string;
  code: string;
  fragment: boolean;
  alsoJavaScript: boolean;
  /** The line of the block this one goes on from. */
  continues?: number;
}

/**
 * The guides a user reads: README.md and docs/*.md. `docs/decisions/` is left out on purpose: those are
 * records of why something was decided, true on the day they were written, and their snippets quote
 * the code as it stood then.
 */
export async function guides(): Promise<string[]> {
  const docs = (await readdir(join(ROOT, 'docs'))).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`);
  return ['README.md', ...docs.sort()];
}

export const SCRIPT_LANGS: Record<string, string> = { ts: 'ts', typescript: 'ts', tsx: 'tsx', js: 'js', javascript: 'js', mjs: 'js', jsx: 'jsx' };

export function extractBlocks(file: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let at = 0; at < lines.length; at++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[at]!);
    if (!open) continue;
    const [, indent, fence, lang] = open as unknown as [string, string, string, string];
    let end = at + 1;
    while (end < lines.length && !lines[end]!.trimStart().startsWith(fence)) end++;
    const code = lines
      .slice(at + 1, end)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
      .join('\n');
    const marker = (lines[at - 1] ?? '').trim();
    const block: Block = { file, line: at + 1, lang: lang.toLowerCase(), code, fragment: marker === FRAGMENT, alsoJavaScript: marker === ALSO_JAVASCRIPT };
    if (marker === CONTINUES) {
      const before = blocks.findLast((each) => each.lang in SCRIPT_LANGS);
      if (!before) throw new Error(`${file}:${at + 1} continues no block`);
      Object.assign(block, { code: `${before.code}\n${code}`, continues: before.line });
    }
    blocks.push(block);
    at = end;
  }
  return blocks;
}

export const where = (block: Block) => `${block.file}:${block.line}`;

/** Every block of every guide, in the order a reader meets them. */
export async function allBlocks(): Promise<Block[]> {
  return (await Promise.all((await guides()).map(async (file) => extractBlocks(file, await readFile(join(ROOT, file), 'utf8'))))).flat();
}
