// The README's CDN script tags carry the Subresource Integrity of the files this build ships, so a
// page that copies them loads exactly these bytes. Run after `npm run build`:
// node --test test/elements/readme-sri.test.mjs (on a mismatch: node scripts/sri.mjs --write).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { CDN_FILES, integrityOf, integritiesIn } from '../../scripts/sri.mjs';

test('every CDN script tag in the README carries the integrity of the file it loads', async () => {
  const tags = integritiesIn(await readFile('README.md', 'utf8'));
  assert.deepEqual([...new Set(tags.map(([file]) => file))].sort(), [...CDN_FILES].sort(), 'the README shows a tag for each one-file build');
  for (const [file, integrity] of tags) {
    assert.equal(integrity, await integrityOf(file), `${file} changed: run npm run build && node scripts/sri.mjs --write`);
  }
});

test('the CDN tags in the README name the version this build is', async () => {
  const { version } = JSON.parse(await readFile('package.json', 'utf8'));
  const readme = await readFile('README.md', 'utf8');
  const versions = [...readme.matchAll(/@invoicekit\/elements@([^/]+)\/dist\//g)].map((match) => match[1]);
  assert.ok(versions.length >= 2);
  for (const shown of versions) assert.equal(shown, version);
});

test('the elements package ships both one-file builds', async () => {
  const script = await readFile('scripts/assemble-packages.mjs', 'utf8');
  for (const file of CDN_FILES) assert.ok(script.includes(`'${file}'`), `${file} is not copied into @invoicekit/elements`);
});
