import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, cp, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

export { freePort } from '../../helpers/redis.js';

/**
 * Debian's WordPress on Debian's Apache (mod_php) and MariaDB, each started for the test on a free
 * port or socket of its own, with throwaway data under one temp folder: the system's own instances
 * are never touched. `stop()` ends both servers and removes everything.
 */
export interface RunningWordPress {
  url: string;
  root: string;
  /** Runs PHP in the site's context (`wp-load.php` loaded) and answers what it printed. */
  php(code: string): Promise<string>;
  /** What PHP logged (notices, warnings, errors) since the site started. */
  debugLog(): Promise<string>;
  stop(): Promise<void>;
}

export interface WordPressOptions {
  /** The port Apache listens on, from `freePort()`. */
  port: number;
  /** The plugin's zip, installed through WordPress's own plugin installer and activated. */
  pluginZip: string;
  /** Constants added to wp-config.php. */
  constants: Record<string, string | boolean>;
  /** Paths Apache proxies elsewhere, as `ProxyPass`: `{ '/bff': 'http://127.0.0.1:1234/bff' }`. */
  proxies: Record<string, string>;
}

const WORDPRESS = '/usr/share/wordpress';
const run = promisify(execFile);

function phpString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > until) throw new Error(`${what} did not start within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether the child ended within `ms`. */
function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Ends a server and everything it forked (each runs in a process group of its own). */
async function end(child: ChildProcess): Promise<void> {
  const group = -child.pid!;
  try {
    process.kill(group, 'SIGTERM');
  } catch {
    return;
  }
  if (await exited(child, 5000)) return;
  try {
    process.kill(group, 'SIGKILL');
  } catch {
    return;
  }
  await exited(child, 5000);
}

export async function startWordPress(options: WordPressOptions): Promise<RunningWordPress> {
  const root = await mkdtemp(join(tmpdir(), 'invoicekit-wp-'));
  // Apache's children run as www-data: they must reach the site's files, the socket and the log.
  await chmod(root, 0o755);
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map(end));
    await rm(root, { recursive: true, force: true });
  };
  try {
    const socket = join(root, 'mysqld.sock');
    const port = options.port;
    await startMariaDb(root, socket, children);
    const url = `http://127.0.0.1:${port}`;
    const docroot = join(root, 'site');
    await copyWordPress(docroot);
    const debugLog = join(root, 'php-debug.log');
    await writeFile(debugLog, '');
    await chmod(debugLog, 0o666);
    await writeConfig(docroot, url, socket, debugLog, options.constants);
    await startApache(root, docroot, port, options.proxies, children);
    const php = async (code: string) => {
      const script = join(root, `run-${randomBytes(6).toString('hex')}.php`);
      await writeFile(
        script,
        `<?php\n$_SERVER['HTTP_HOST'] = '127.0.0.1:${port}';\n$_SERVER['REQUEST_URI'] = '/';\nrequire ${phpString(join(docroot, 'wp-load.php'))};\nrequire_once ABSPATH . 'wp-admin/includes/plugin.php';\n${code}\n`,
      );
      try {
        return (await run('php', [script], { cwd: docroot, maxBuffer: 16 << 20 })).stdout;
      } finally {
        await rm(script, { force: true });
      }
    };
    await install(root, docroot, port, options.pluginZip);
    return { url, root, php, debugLog: () => readFile(debugLog, 'utf8'), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startMariaDb(root: string, socket: string, children: ChildProcess[]): Promise<void> {
  const data = join(root, 'mariadb');
  await run('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, '--user=root', '--auth-root-authentication-method=normal', '--skip-test-db', '--skip-name-resolve']);
  const server = spawn(
    'mariadbd',
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--socket=${socket}`,
      '--skip-networking',
      '--user=root',
      `--pid-file=${join(root, 'mariadb.pid')}`,
      `--log-error=${join(root, 'mariadb.log')}`,
      '--innodb-buffer-pool-size=32M',
      '--skip-log-bin',
    ],
    { stdio: 'ignore', detached: true },
  );
  children.push(server);
  await waitFor(async () => {
    if (server.exitCode !== null) throw new Error(`mariadbd exited: ${await readFile(join(root, 'mariadb.log'), 'utf8')}`);
    await run('mariadb-admin', ['--no-defaults', `--socket=${socket}`, '-uroot', 'ping']);
    return true;
  }, 'MariaDB');
  await run('mariadb', [
    '--no-defaults',
    `--socket=${socket}`,
    '-uroot',
    '-e',
    "create database wordpress; create user 'wordpress'@'localhost' identified by 'wordpress'; grant all on wordpress.* to 'wordpress'@'localhost';",
  ]);
}

/**
 * The site's own copy of Debian's WordPress. Core files are hard links where the file system allows
 * (WordPress never writes them), wp-content a real copy; Debian's wp-config.php, which reads
 * /etc/wordpress, is replaced by the site's own.
 */
async function copyWordPress(docroot: string): Promise<void> {
  await mkdir(docroot);
  for (const name of ['wp-admin', 'wp-includes']) {
    await run('cp', ['-al', join(WORDPRESS, name), docroot]).catch(() => run('cp', ['-a', join(WORDPRESS, name), docroot]));
  }
  await cp(join(WORDPRESS, 'wp-content'), join(docroot, 'wp-content'), { recursive: true, dereference: true });
  for (const file of ['index.php', 'wp-activate.php', 'wp-blog-header.php', 'wp-comments-post.php', 'wp-cron.php', 'wp-links-opml.php', 'wp-load.php', 'wp-login.php', 'wp-mail.php', 'wp-settings.php', 'wp-signup.php', 'wp-trackback.php', 'xmlrpc.php']) {
    await cp(join(WORDPRESS, file), join(docroot, file));
  }
  // Debian links bundled libraries (underscore, getID3) relatively, to /usr/share/javascript and
  // /usr/share/php: in the copy those links point at the original's targets.
  const { stdout } = await run('find', [docroot, '-type', 'l']);
  for (const link of stdout.split('\n').filter(Boolean)) {
    const target = await realpath(join(WORDPRESS, relative(docroot, link))).catch(() => undefined);
    if (!target) continue;
    await rm(link);
    await symlink(target, link);
  }
  await mkdir(join(docroot, 'wp-content/uploads'), { recursive: true });
  await chmod(join(docroot, 'wp-content/uploads'), 0o777);
}

async function writeConfig(docroot: string, url: string, socket: string, debugLog: string, constants: Record<string, string | boolean>): Promise<void> {
  const define = (name: string, value: string | boolean) => `define(${phpString(name)}, ${typeof value === 'boolean' ? String(value) : phpString(value)});`;
  const salts = ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT'];
  const lines = [
    '<?php',
    define('DB_NAME', 'wordpress'),
    define('DB_USER', 'wordpress'),
    define('DB_PASSWORD', 'wordpress'),
    define('DB_HOST', `localhost:${socket}`),
    define('DB_CHARSET', 'utf8mb4'),
    "$table_prefix = 'wp_';",
    ...salts.map((salt) => define(salt, randomBytes(24).toString('hex'))),
    define('WP_HOME', url),
    define('WP_SITEURL', url),
    define('WP_CONTENT_DIR', join(docroot, 'wp-content')),
    define('WP_CONTENT_URL', `${url}/wp-content`),
    // WordPress asks wordpress.org and gravatar on its own: nothing leaves this machine.
    define('WP_HTTP_BLOCK_EXTERNAL', true),
    define('AUTOMATIC_UPDATER_DISABLED', true),
    define('DISABLE_WP_CRON', true),
    define('FS_METHOD', 'direct'),
    define('WP_DEBUG', true),
    define('WP_DEBUG_DISPLAY', false),
    define('WP_DEBUG_LOG', debugLog),
    ...Object.entries(constants).map(([name, value]) => define(name, value)),
    "if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');",
    "require_once ABSPATH . 'wp-settings.php';",
    '',
  ];
  await writeFile(join(docroot, 'wp-config.php'), lines.join('\n'));
}

async function startApache(root: string, docroot: string, port: number, proxies: Record<string, string>, children: ChildProcess[]): Promise<void> {
  const modules = '/usr/lib/apache2/modules';
  const load = (name: string, file = `mod_${name}.so`) => `LoadModule ${name}_module ${modules}/${file}`;
  const config = [
    `ServerRoot ${root}`,
    `Listen 127.0.0.1:${port}`,
    'ServerName 127.0.0.1',
    load('mpm_prefork'),
    load('authz_core'),
    load('dir'),
    load('mime'),
    load('rewrite'),
    load('proxy'),
    load('proxy_http'),
    load('php', 'libphp8.2.so'),
    // Apache refuses to run its children as root; as root it hands them to Debian's web server user.
    ...(process.getuid?.() === 0 ? ['User www-data', 'Group www-data'] : []),
    `PidFile ${root}/apache.pid`,
    `DefaultRuntimeDir ${root}`,
    `Mutex file:${root} default`,
    `ErrorLog ${root}/apache-error.log`,
    'LogLevel warn',
    'TypesConfig /etc/mime.types',
    'StartServers 4',
    'MinSpareServers 2',
    'MaxSpareServers 8',
    'MaxRequestWorkers 24',
    `DocumentRoot ${docroot}`,
    'DirectoryIndex index.php',
    `<Directory ${docroot}>`,
    '  AllowOverride None',
    // Debian's WordPress links its bundled libraries (underscore, jQuery plugins) to /usr/share/javascript.
    '  Options FollowSymLinks',
    '  Require all granted',
    '</Directory>',
    '<FilesMatch "\\.php$">',
    '  SetHandler application/x-httpd-php',
    '</FilesMatch>',
    // As docs/cms.md tells a site to: the BFF under the site's own origin, with the Host it was asked for.
    'ProxyPreserveHost On',
    ...Object.entries(proxies).flatMap(([path, target]) => [`ProxyPass ${path} ${target}`, `ProxyPassReverse ${path} ${target}`]),
    '',
  ];
  const file = join(root, 'apache.conf');
  await writeFile(file, config.join('\n'));
  const server = spawn('apache2', ['-f', file, '-DFOREGROUND'], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let output = '';
  server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  children.push(server);
  await waitFor(async () => {
    if (server.exitCode !== null) throw new Error(`apache2 exited: ${output}${await readFile(join(root, 'apache-error.log'), 'utf8').catch(() => '')}`);
    await fetch(`http://127.0.0.1:${port}/wp-includes/images/blank.gif`);
    return true;
  }, 'Apache');
}

/** Installs WordPress headless (`wp_install()`), then the plugin from its zip through WordPress's own installer. */
async function install(root: string, docroot: string, port: number, pluginZip: string): Promise<void> {
  const script = join(root, 'install.php');
  // The installer deletes the package it unpacked: it gets a copy.
  const zip = join(root, 'invoicekit.zip');
  await cp(pluginZip, zip);
  await writeFile(
    script,
    `<?php
$_SERVER['HTTP_HOST'] = '127.0.0.1:${port}';
$_SERVER['REQUEST_URI'] = '/';
define('WP_INSTALLING', true);
require ${phpString(join(docroot, 'wp-load.php'))};
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
$installed = wp_install('invoicekit shop', 'admin', 'admin@shop.example', false, '', 'admin-password-1');
if (is_wp_error($installed)) { fwrite(STDERR, $installed->get_error_message()); exit(1); }
require_once ABSPATH . 'wp-admin/includes/plugin.php';
require_once ABSPATH . 'wp-admin/includes/class-wp-upgrader.php';
wp_set_current_user(1);
$upgrader = new Plugin_Upgrader(new Automatic_Upgrader_Skin());
$result = $upgrader->install(${phpString(zip)});
if (true !== $result) { fwrite(STDERR, 'plugin install failed: ' . print_r($upgrader->skin->get_upgrade_messages(), true) . (is_wp_error($result) ? $result->get_error_message() : '')); exit(1); }
$activated = activate_plugin('invoicekit/invoicekit.php', '', false, false);
if (is_wp_error($activated)) { fwrite(STDERR, $activated->get_error_message()); exit(1); }
echo 'installed';
`,
  );
  const { stdout } = await run('php', [script], { cwd: docroot });
  if (!stdout.includes('installed')) throw new Error(`WordPress did not install: ${stdout}`);
}
