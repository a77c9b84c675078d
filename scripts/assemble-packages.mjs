// Lays out the audience packages in dist/packages/<name>/ from the one build: a manifest from
// packages/<name>/package.json, with the version and dependency ranges of the root package (the one
// place versions are kept), its README, and the built files each audience needs. Globs, not lists,
// pick the files, so new modules under src/ are shipped without a change here.
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { editorData } from './editor-data.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const rootManifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const ranges = { ...rootManifest.devDependencies, ...rootManifest.peerDependencies, ...rootManifest.dependencies };

/** What each audience package holds, as paths of the root package (folders are copied whole). */
const contents = {
  elements: {
    copy: ['dist/elements', 'dist/dev', 'dist/frameworks', 'dist/invoicekit.js', 'dist/invoicekit.js.map', 'dist/invoicekit.classic.js', 'src/elements', 'src/frameworks', 'custom-elements.json'],
    // Only the declarations of the elements and wrappers: their JavaScript is the bundles above.
    declarations: ['dist/lib/elements', 'dist/lib/frameworks'],
  },
  bff: {
    // The elements' modules too: `POST /render/invoice-list` renders `<invoice-list>` with its own template.
    copy: ['dist/lib/api', 'dist/lib/bff', 'dist/lib/elements', 'dist/lib/contract', 'dist/lib/kernel', 'dist/lib/server-kit', 'src/api', 'src/bff', 'src/elements', 'src/contract', 'src/kernel', 'src/server-kit'],
    declarations: [],
  },
};

for (const [name, { copy, declarations }] of Object.entries(contents)) {
  const out = join(root, 'dist/packages', name);
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const manifest = JSON.parse(await readFile(join(root, 'packages', name, 'package.json'), 'utf8'));
  const ordered = { name: manifest.name, version: rootManifest.version, ...manifest };
  for (const field of ['dependencies', 'peerDependencies']) {
    for (const dependency of Object.keys(ordered[field] ?? {})) {
      const range = ranges[dependency];
      if (!range) throw new Error(`${manifest.name}: the root package.json has no version of ${dependency}`);
      ordered[field][dependency] = range;
    }
  }
  await writeFile(join(out, 'package.json'), `${JSON.stringify(ordered, null, 2)}\n`);
  for (const file of await readdir(join(root, 'packages', name))) {
    if (file !== 'package.json') await cp(join(root, 'packages', name, file), join(out, file), { recursive: true });
  }
  for (const path of copy) await cp(join(root, path), join(out, path), { recursive: true });
  for (const path of declarations) await copyDeclarations(join(root, path), join(out, path));
  await copyReferencedDeclarations(out);
  await shareShippedSources(out);
  if (name === 'elements') {
    // VS Code custom data and JetBrains web-types, from the manifest shipped beside them.
    const elementsManifest = JSON.parse(await readFile(join(root, 'custom-elements.json'), 'utf8'));
    for (const [file, content] of Object.entries(editorData(elementsManifest, { name: ordered.name, version: ordered.version }))) await writeFile(join(out, file), content);
  }
}

/**
 * Declarations the shipped ones import by relative path (the elements' events name a type of the
 * client's validation), so that a project type-checks the package without `skipLibCheck`.
 */
async function copyReferencedDeclarations(out) {
  const queue = await declarationFiles(join(out, 'dist/lib'));
  const seen = new Set(queue);
  while (queue.length) {
    const file = queue.pop();
    const text = await readFile(file, 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = join(dirname(file), specifier.replace(/\.js$/, '.d.ts'));
      if (seen.has(target)) continue;
      seen.add(target);
      if (!existsSync(target)) {
        const source = join(root, relative(out, target));
        if (!existsSync(source)) throw new Error(`${relative(out, file)} imports ${specifier}, which the build did not write`);
        await mkdir(dirname(target), { recursive: true });
        await cp(source, target);
        if (existsSync(`${source}.map`)) await cp(`${source}.map`, `${target}.map`);
      }
      queue.push(target);
    }
  }
}

async function declarationFiles(dir) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.d.ts')) found.push(join(entry.parentPath, entry.name));
  }
  return found;
}

async function copyDeclarations(from, to) {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) await copyDeclarations(source, join(to, entry.name));
    else if (/\.d\.ts(\.map)?$/.test(entry.name)) {
      await mkdir(dirname(join(to, entry.name)), { recursive: true });
      await cp(source, join(to, entry.name));
    }
  }
}

/**
 * The source maps of a package point at the sources the package ships itself (`src/...`): their
 * copies embedded in `sourcesContent` go, and a debugger reads the shipped file at the map's path.
 * Sources the package does not ship (Lit, shared code of other packages) stay embedded.
 */
async function shareShippedSources(out) {
  for (const entry of await readdir(out, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js.map')) continue;
    const path = join(entry.parentPath ?? entry.path, entry.name);
    const map = JSON.parse(await readFile(path, 'utf8'));
    if (!Array.isArray(map.sourcesContent)) continue;
    const base = join(dirname(path), map.sourceRoot ?? '');
    let shared = 0;
    map.sourcesContent = map.sources.map((source, index) => {
      const shipped = join(base, source);
      if (!relative(out, shipped).startsWith('..') && existsSync(shipped)) {
        shared += 1;
        return null;
      }
      return map.sourcesContent[index] ?? null;
    });
    if (shared > 0) await writeFile(path, JSON.stringify(map));
  }
}
