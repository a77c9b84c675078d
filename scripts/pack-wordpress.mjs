// Packs the WordPress plugin into dist/wordpress/invoicekit.zip: the folder invoicekit/ holding
// wordpress/ as it is, the elements' one-file bundle (dist/invoicekit.js), and the Polish
// translations compiled from wordpress/languages/*.po (a .mo for PHP, a JSON file per script).
// The zip is written by the service's own zip writer (run through tsx), so packing needs no system tool.
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipArchive } from '../src/service/resources/zip.js';
import { parsePo } from './wordpress-po.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = join(root, 'wordpress');
const FOLDER = 'invoicekit';

async function filesUnder(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(path)));
    else found.push(path);
  }
  return found.sort();
}

/** A gettext .mo file: the header, then the original and translated strings, sorted by original. */
function moFile(entries) {
  const sorted = [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const count = sorted.length;
  const keys = sorted.map((entry) => Buffer.from(entry.key));
  const values = sorted.map((entry) => Buffer.from(entry.value));
  const tablesEnd = 28 + count * 16;
  const header = Buffer.alloc(tablesEnd);
  header.writeUInt32LE(0x950412de, 0);
  header.writeUInt32LE(0, 4);
  header.writeUInt32LE(count, 8);
  header.writeUInt32LE(28, 12);
  header.writeUInt32LE(28 + count * 8, 16);
  // No hash table (size 0), but its offset right after the two tables: WordPress's reader measures by it.
  header.writeUInt32LE(0, 20);
  header.writeUInt32LE(tablesEnd, 24);
  let offset = tablesEnd;
  keys.forEach((key, i) => {
    header.writeUInt32LE(key.length, 28 + i * 8);
    header.writeUInt32LE(offset, 32 + i * 8);
    offset += key.length + 1;
  });
  values.forEach((value, i) => {
    header.writeUInt32LE(value.length, 28 + count * 8 + i * 8);
    header.writeUInt32LE(offset, 32 + count * 8 + i * 8);
    offset += value.length + 1;
  });
  const nul = Buffer.alloc(1);
  return Buffer.concat([header, ...keys.flatMap((key) => [key, nul]), ...values.flatMap((value) => [value, nul])]);
}

/** The translations WordPress loads for one script: `<domain>-<locale>-<md5 of its path>.json`, Jed format. */
function scriptTranslations(entries, locale, header) {
  const messages = { '': { domain: 'messages', lang: locale, 'plural-forms': header['Plural-Forms'] ?? 'nplurals=2; plural=(n != 1);' } };
  for (const entry of entries) if (entry.key) messages[entry.key] = [entry.value];
  return JSON.stringify({ 'translation-revision-date': header['PO-Revision-Date'] ?? '', generator: 'invoicekit', domain: 'messages', locale_data: { messages } });
}

async function translations() {
  const out = [];
  const dir = join(source, 'languages');
  for (const name of (await readdir(dir)).filter((file) => file.endsWith('.po'))) {
    const { header, headerText, entries } = parsePo(await readFile(join(dir, name), 'utf8'));
    const base = name.slice(0, -3);
    const locale = base.slice(base.indexOf('-') + 1);
    out.push({ path: `languages/${base}.mo`, data: moFile([{ key: '', value: headerText }, ...entries.filter((entry) => entry.php)]) });
    const scripts = new Set(entries.flatMap((entry) => entry.scripts));
    for (const script of scripts) {
      const md5 = createHash('md5').update(script).digest('hex');
      const own = entries.filter((entry) => entry.scripts.includes(script));
      out.push({ path: `languages/${base}-${md5}.json`, data: Buffer.from(scriptTranslations(own, locale, header)) });
    }
  }
  return out;
}

const files = [];
for (const path of await filesUnder(source)) {
  const inside = relative(source, path).split(sep).join('/');
  if (inside.endsWith('.po')) continue;
  files.push({ path: inside, data: await readFile(path) });
}
files.push({ path: 'assets/invoicekit.js', data: await readFile(join(root, 'dist/invoicekit.js')) });
files.push(...(await translations()));
const out = join(root, 'dist/wordpress');
await mkdir(out, { recursive: true });
// A fixed date, so the same sources make the same zip.
const modified = new Date('2026-01-01T00:00:00Z');
await writeFile(join(out, 'invoicekit.zip'), zipArchive(files.map((file) => ({ name: `${FOLDER}/${file.path}`, content: file.data, modified }))));
console.log(`dist/wordpress/invoicekit.zip: ${files.length} files`);
