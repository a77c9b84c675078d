// Reads the WordPress plugin's translations (.po) and finds the strings its sources translate, so
// packing can compile them and a test can tell when one has no translation.
import { readFile, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

function unquote(text) {
  return JSON.parse(text);
}

/**
 * The header fields, the header as written, and every translated entry with where it is used: `php`
 * when a PHP file or block.json uses it, `scripts` the JavaScript files that do.
 */
export function parsePo(text) {
  const entries = [];
  let current = { refs: [], key: undefined, value: undefined, field: undefined };
  const flush = () => {
    if (current.key !== undefined && current.value !== undefined) {
      const scripts = current.refs.filter((ref) => ref.endsWith('.js'));
      entries.push({ key: current.key, value: current.value, scripts, php: current.refs.some((ref) => !ref.endsWith('.js')) });
    }
    current = { refs: [], key: undefined, value: undefined, field: undefined };
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('#:')) {
      if (current.value !== undefined) flush();
      current.refs.push(...line.slice(2).trim().split(/\s+/).map((ref) => ref.replace(/:\d+$/, '')));
    } else if (line.startsWith('msgid ')) {
      if (current.value !== undefined) flush();
      current.key = unquote(line.slice(6));
      current.field = 'key';
    } else if (line.startsWith('msgstr ')) {
      current.value = unquote(line.slice(7));
      current.field = 'value';
    } else if (line.startsWith('"') && current.field) {
      current[current.field] += unquote(line);
    }
  }
  flush();
  const headerEntry = entries.find((entry) => entry.key === '');
  const headerText = headerEntry?.value ?? '';
  const header = Object.fromEntries(
    headerText
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { header, headerText, entries: entries.filter((entry) => entry.key !== '' && entry.value !== '') };
}

const CALL = /\b(?:__|_e|esc_html__|esc_html_e|esc_attr__|esc_attr_e)\(\s*'((?:[^'\\]|\\.)*)'\s*,\s*'invoicekit'/g;

/** Every string the plugin's PHP, JavaScript and block.json files translate, with the files using it. */
export async function pluginStrings(dir) {
  const strings = new Map();
  const add = (text, file) => {
    if (!strings.has(text)) strings.set(text, new Set());
    strings.get(text).add(file);
  };
  const walk = async (at) => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        await walk(path);
        continue;
      }
      const file = relative(dir, path).split(sep).join('/');
      if (file === 'assets/invoicekit.js') continue;
      const text = await readFile(path, 'utf8').catch(() => '');
      if (entry.name === 'block.json') {
        const block = JSON.parse(text);
        for (const field of ['title', 'description']) add(block[field], file);
        for (const keyword of block.keywords ?? []) add(keyword, file);
      } else if (/\.(php|js)$/.test(entry.name)) {
        for (const match of text.matchAll(CALL)) add(match[1].replace(/\\(.)/g, '$1'), file);
      }
    }
  };
  await walk(dir);
  return strings;
}
