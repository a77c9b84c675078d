// Subresource Integrity for the one-file builds a page loads from a CDN. The README shows each
// script tag with its `integrity` value; `node scripts/sri.mjs` prints the values of the current
// build, and `node scripts/sri.mjs --write` puts them into the README after `npm run build`.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';

/** The files a page may load from a CDN, as the package ships them. */
export const CDN_FILES = ['dist/invoicekit.js', 'dist/invoicekit.classic.js'];

export async function integrityOf(file) {
  return `sha384-${createHash('sha384').update(await readFile(file)).digest('base64')}`;
}

/** Each CDN script tag in `text` with the integrity it carries: `[file, integrity]` pairs. */
export function integritiesIn(text) {
  return [...text.matchAll(/\/(dist\/invoicekit(?:\.classic)?\.js)"\s+integrity="([^"]*)"/g)].map((match) => [match[1], match[2]]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const values = Object.fromEntries(await Promise.all(CDN_FILES.map(async (file) => [file, await integrityOf(file)])));
  if (process.argv.includes('--write')) {
    const readme = await readFile('README.md', 'utf8');
    const updated = readme.replace(/\/(dist\/invoicekit(?:\.classic)?\.js)"(\s+)integrity="[^"]*"/g, (_, file, space) => `/${file}"${space}integrity="${values[file]}"`);
    await writeFile('README.md', updated);
  }
  for (const [file, value] of Object.entries(values)) console.log(`${file} ${value}`);
}
