import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface ComposeService {
  build?: string;
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  configs?: { source: string; target: string }[];
}

/**
 * Docker cannot run here, so the deployment files are checked by reading them: the compose file
 * parses, and every command, flag, variable and file it and the Dockerfile name exists in the package.
 */
describe('Dockerfile and compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, ComposeService>; configs: Record<string, { content: string }> };
  const dockerfile = read('Dockerfile');
  const cliSources = read('src/cli.ts') + read('src/bff/cli.ts') + read('src/bff/stores/index.ts');
  const manifest = JSON.parse(read('package.json')) as { bin: Record<string, string>; engines: { node: string } };
  const invoicekit = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);

  it('parses, with the database, Redis, a one-off migration, the service, the BFF and a load balancer', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['bff', 'lb', 'migrate', 'postgres', 'redis', 'service']);
    expect(invoicekit.map(([name]) => name).sort()).toEqual(['bff', 'migrate', 'service']);
    for (const [, service] of invoicekit) expect(existsSync(join(ROOT, service.build!, 'Dockerfile'))).toBe(true);
    expect(compose.services.service!.depends_on).toMatchObject({ migrate: { condition: 'service_completed_successfully' } });
  });

  it('runs only commands and flags the invoicekit command has', () => {
    for (const [name, service] of invoicekit) {
      const [command, ...args] = service.command!;
      expect(['service', 'bff', 'migrate'], name).toContain(command);
      expect(cliSources).toContain(`case '${command}':`);
      for (const flag of args.filter((arg) => arg.startsWith('--'))) {
        const option = flag.slice(2);
        expect(cliSources, `${name}: ${flag}`).toMatch(new RegExp(`['"]?${option}['"]?: \\{ type:`));
      }
    }
    expect(compose.services.service!.command).toContain('--skip-migrations');
  });

  it('sets only variables the code reads', () => {
    for (const [name, service] of invoicekit) {
      for (const variable of Object.keys(service.environment ?? {})) {
        if (variable === 'HEALTH_PORT') expect(dockerfile).toContain('process.env.HEALTH_PORT');
        else expect(cliSources, `${name}: ${variable}`).toMatch(new RegExp(`process\\.env(\\.${variable}\\b|\\['${variable}'\\])|env\\['${variable}'\\]`));
      }
    }
    expect(compose.services.bff!.environment).toHaveProperty('REDIS_URL');
    expect(compose.services.service!.environment!['DATABASE_URL']).toMatch(/^postgres:\/\/invoicekit:.*@postgres:5432\/invoicekit$/);
  });

  it('balances over the services and ports the commands listen on, with nginx variables escaped from compose', () => {
    const nginx = compose.configs['nginx']!.content;
    expect(nginx).toContain('server service:8787');
    expect(nginx).toContain('server bff:8788');
    expect(compose.services.service!.command!.join(' ')).toContain('--port 8787');
    expect(compose.services.bff!.command!.join(' ')).toContain('--port 8788');
    expect(compose.services.bff!.command!.join(' ')).toContain('--service http://lb:8787');
    // Compose interpolates `$name`: nginx's own variables must be written `$$name`.
    expect(nginx.replace(/\$\$/g, '')).not.toMatch(/\$/);
  });

  it('installs the packed package and starts its bin', () => {
    const node = /^FROM node:(\d+)/m.exec(dockerfile)![1]!;
    expect(Number(node)).toBeGreaterThanOrEqual(Number(/\d+/.exec(manifest.engines.node)![0]));
    expect(dockerfile).toMatch(/npm pack --ignore-scripts/);
    expect(dockerfile).toMatch(/npm install --omit=dev .*invoicekit-\*\.tgz/);
    const entry = /ENTRYPOINT \["node", "([^"]+)"\]/.exec(dockerfile)![1]!;
    expect(entry).toBe(`/app/node_modules/invoicekit/${manifest.bin['invoicekit']!.replace(/^\.\//, '')}`);
    for (const copied of /COPY (package\.json package-lock\.json) /.exec(dockerfile)![1]!.split(' ')) expect(existsSync(join(ROOT, copied))).toBe(true);
    expect(read('.dockerignore')).toMatch(/^node_modules$/m);
  });
});
