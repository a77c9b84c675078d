import { execFile } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain script module shared with the packing script; it has no declarations.
import { parsePo, pluginStrings } from '../../scripts/wordpress-po.mjs';

/**
 * The plugin's PHP is linted by PHP itself, and the WordPress Coding Standards rules that matter most
 * (escaping, input handling, nonces, capabilities, translation) are checked here: PHPCS is in Debian,
 * but the WordPress standard for it comes only from Packagist. docs/decisions/wordpress-plugin.md
 * lists what is checked.
 */
const PLUGIN = fileURLToPath(new URL('../../wordpress/', import.meta.url));
const run = promisify(execFile);

async function files(dir: string, ending: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await files(path, ending)));
    else if (entry.name.endsWith(ending)) found.push(path);
  }
  return found.sort();
}

const name = (path: string) => relative(PLUGIN, path);
const phpFiles = await files(PLUGIN, '.php');

describe('the plugin PHP', () => {
  it('parses: php -l on every file', async () => {
    const results = await Promise.all(phpFiles.map((file) => run('php', ['-l', file]).then(() => '', (error: { stdout: string }) => `${name(file)}: ${error.stdout}`)));
    expect(results.filter(Boolean)).toEqual([]);
    expect(phpFiles.length).toBeGreaterThan(8);
  });

  it('states its requirements in the header: WordPress 6.1, PHP 8.1, its text domain', async () => {
    const main = await readFile(join(PLUGIN, 'invoicekit.php'), 'utf8');
    expect(main).toMatch(/^ \* Requires at least: 6\.1$/m);
    expect(main).toMatch(/^ \* Requires PHP:\s+8\.1$/m);
    expect(main).toMatch(/^ \* Text Domain:\s+invoicekit$/m);
  });

  it('stops every file loaded outside WordPress, and indents with tabs', async () => {
    for (const file of phpFiles) {
      const text = await readFile(file, 'utf8');
      expect(text, name(file)).toMatch(/defined\( '(ABSPATH|WP_UNINSTALL_PLUGIN)' \) \|\| exit;/);
      expect(text.split('\n').filter((line) => /^ +\S/.test(line) && !/^ \*/.test(line)), name(file)).toEqual([]);
    }
  });

  it('escapes what it prints: every echo is of an escaping function, or says why not', async () => {
    const unescaped: string[] = [];
    for (const file of phpFiles) {
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines.forEach((line, index) => {
        const echo = /\b(echo|print)\s+(.*)/.exec(line);
        if (!echo || line.trim().startsWith('*')) return;
        const justified = /phpcs:ignore WordPress\.Security\.EscapeOutput\.OutputNotEscaped -- \S/.test(`${lines[index - 1]}${line}`);
        if (!justified && !/^(esc_html|esc_attr|esc_url|wp_kses|wp_json_encode|absint|intval)\w*\(/.test(echo[2]!)) unescaped.push(`${name(file)}:${index + 1}: ${line.trim()}`);
      });
      for (const match of lines.join('\n').matchAll(/\b_e\(|\bprintf\((?!\s*')/g)) unescaped.push(`${name(file)}: ${match[0]}`);
    }
    expect(unescaped).toEqual([]);
  });

  it('reads request input only unslashed and sanitized, after a nonce and a capability check', async () => {
    const problems: string[] = [];
    for (const file of phpFiles) {
      const text = await readFile(file, 'utf8');
      for (const fn of text.split(/\n\t(?:public |private )?(?:static )?function /).slice(1)) {
        if (!/\$_(POST|GET|REQUEST|COOKIE|SERVER)\[/.test(fn)) continue;
        const title = `${name(file)}: ${fn.slice(0, fn.indexOf('('))}`;
        if (!/wp_verify_nonce|check_admin_referer|check_ajax_referer/.test(fn)) problems.push(`${title} reads input without a nonce`);
        if (!/current_user_can|can_link/.test(fn)) problems.push(`${title} reads input without a capability check`);
        for (const read of fn.matchAll(/([\w(]*)\(\s*wp_unslash\(\s*\$_(?:POST|GET|REQUEST)\[/g)) {
          if (!/sanitize_|absint/.test(read[1]!)) problems.push(`${title} uses input unsanitized`);
        }
        for (const read of fn.matchAll(/[^(\s]\s*\$_(?:POST|GET|REQUEST)\[[^\]]+\]/g)) {
          if (!/isset\(|wp_unslash\(/.test(fn.slice(Math.max(0, read.index! - 40), read.index! + 2))) problems.push(`${title} uses ${read[0].trim()} directly`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('translates every string with its own text domain, and Polish has every one', async () => {
    const sources = [...phpFiles, ...(await files(join(PLUGIN, 'assets'), '.js'))];
    const wrongDomain: string[] = [];
    for (const file of sources) {
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(/\b(?:__|_e|_x|_n|esc_html__|esc_html_e|esc_attr__|esc_attr_e)\(\s*'(?:[^'\\]|\\.)*'\s*(?:,\s*'([^']*)')?/g)) {
        if (match[1] !== 'invoicekit') wrongDomain.push(`${name(file)}: ${match[0]}`);
      }
    }
    expect(wrongDomain).toEqual([]);
    const strings = (await pluginStrings(PLUGIN)) as Map<string, Set<string>>;
    const po = parsePo(await readFile(join(PLUGIN, 'languages/invoicekit-pl_PL.po'), 'utf8')) as { entries: { key: string }[] };
    const translated = new Set(po.entries.map((entry) => entry.key));
    expect([...strings.keys()].filter((text) => !translated.has(text))).toEqual([]);
    expect(strings.size).toBeGreaterThan(50);
  });
});
