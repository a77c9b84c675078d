import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { citedDocsPaths, decisionRecords, docsProblems, markdownLinks } from './support/doc-links.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
// Built, so that the checker reading this file does not take the fixtures' paths for citations.
const DOCS = 'docs';

describe('the decision records and the docs’ links', () => {
  it('indexes every record of docs/decisions/, and every link and cited docs path resolves', async () => {
    expect(await docsProblems(ROOT)).toEqual([]);
  });

  it('finds the repository’s records and index lines (the index names each record once)', async () => {
    const { records, indexed } = await decisionRecords(ROOT);
    expect(records).toContain('size-budget-raises.md');
    expect(records).toContain('test-suite-time.md');
    expect(indexed).toEqual(records);
  });
});

describe('the checker, shown firing on a repository of its own', () => {
  const made: string[] = [];
  afterAll(async () => {
    await Promise.all(made.map((folder) => rm(folder, { recursive: true, force: true })));
  });

  async function repository(files: Record<string, string>): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'invoicekit-doc-links-'));
    made.push(root);
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    return root;
  }

  const sound = {
    'README.md': `# x\n\nSee [the guide](${DOCS}/guide.md) and [a record](${DOCS}/decisions/kept.md#why).\n`,
    [`${DOCS}/guide.md`]: '# Guide\n\n[Back](../README.md), [up](#guide), [away](https://example.com/nowhere.md).\n',
    [`${DOCS}/decisions/README.md`]: '# Records\n\n- [kept](kept.md): kept\n',
    [`${DOCS}/decisions/kept.md`]: `# Kept\n\n**Decision.** Kept. Figures: [log](../measurements/kept.md).\n`,
    [`${DOCS}/measurements/kept.md`]: `# Kept, measured\n\nThe record: ${DOCS}/decisions/kept.md.\n`,
    'src/kept.ts': `// Why: ${DOCS}/decisions/kept.md; not ours: https://example.com/${DOCS}/gone.md\nexport const kept = 1;\n`,
  };

  it('finds nothing wrong in a sound repository', async () => {
    expect(await docsProblems(await repository(sound))).toEqual([]);
  });

  it('names a record missing from the index, and an index line naming no file', async () => {
    const root = await repository({
      ...sound,
      [`${DOCS}/decisions/unlisted.md`]: '# Unlisted\n',
      [`${DOCS}/decisions/README.md`]: '# Records\n\n- [kept](kept.md): kept\n- [gone](gone.md): gone\n',
    });
    expect(await docsProblems(root)).toEqual([
      `${DOCS}/decisions/unlisted.md is not in the index, ${DOCS}/decisions/README.md`,
      `${DOCS}/decisions/README.md indexes gone.md, which does not exist`,
      `${DOCS}/decisions/README.md:4 links to gone.md, which does not exist`,
    ]);
  });

  it('names a missing index', async () => {
    const withoutIndex = Object.fromEntries(Object.entries(sound).filter(([path]) => path !== `${DOCS}/decisions/README.md`));
    expect(await docsProblems(await repository(withoutIndex))).toEqual([
      `${DOCS}/decisions/README.md, the index of the decision records, is missing`,
      `${DOCS}/decisions/kept.md is not in the index, ${DOCS}/decisions/README.md`,
    ]);
  });

  it('names a relative link that points at nothing, in README.md and under docs/, with its line', async () => {
    const root = await repository({
      ...sound,
      'README.md': `# x\n\n![shot](${DOCS}/images/shot.png)\n\n[moved](${DOCS}/decisions/moved.md)\n`,
      [`${DOCS}/guide.md`]: '# Guide\n\n```md\n[in an example](nowhere.md)\n```\n`[in code](nowhere.md)` and [real](../nowhere.md)\n[ref]: ./also-nowhere.md\n',
    });
    expect(await docsProblems(root)).toEqual([
      `README.md:3 links to ${DOCS}/images/shot.png, which does not exist`,
      `README.md:5 links to ${DOCS}/decisions/moved.md, which does not exist`,
      `${DOCS}/guide.md:6 links to ../nowhere.md, which does not exist`,
      `${DOCS}/guide.md:7 links to ./also-nowhere.md, which does not exist`,
    ]);
  });

  it('names a docs path cited in src/, test/ or scripts/ that does not exist', async () => {
    const root = await repository({
      ...sound,
      'src/service/db.ts': `/** Measured (see ${DOCS}/decisions/service-speed.md). */\nexport const db = 1;\n`,
      'test/x.test.ts': `\n// ${DOCS}/measurements/gone.md, and ${DOCS}/decisions/kept.md which is there\n`,
      'scripts/run.sh': `# (${DOCS}/deploy.md)\n`,
    });
    expect(await docsProblems(root)).toEqual([
      `src/service/db.ts:1 cites ${DOCS}/decisions/service-speed.md, which does not exist`,
      `test/x.test.ts:2 cites ${DOCS}/measurements/gone.md, which does not exist`,
      `scripts/run.sh:1 cites ${DOCS}/deploy.md, which does not exist`,
    ]);
  });

  it('reads links and citations as written', () => {
    expect(markdownLinks('[a](x.md "title") [b](<y z.md>) [c](mailto:a@b.c) [d](#here) [e](f%20g.md#part)', 'p.md')).toEqual([
      { file: 'p.md', line: 1, target: 'x.md' },
      { file: 'p.md', line: 1, target: 'y z.md' },
      { file: 'p.md', line: 1, target: 'f g.md' },
    ]);
    expect(citedDocsPaths(`see ${DOCS}/decisions/a.md.\nand https://h/${DOCS}/b.md, or ${DOCS}/ alone`, 'f.ts')).toEqual([
      { file: 'f.ts', line: 1, target: `${DOCS}/decisions/a.md` },
    ]);
  });
});
