import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (redis-server refuses `--port 0`). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts a real, throwaway `redis-server` (Debian's package; scripts/ensure-tools.sh installs it). */
export async function startTestRedis(): Promise<TestRedis> {
  const binary = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) => existsSync(path)) ?? 'redis-server';
  for (let attempt = 0; ; attempt += 1) {
    const port = await freePort();
    const child: ChildProcess = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const ready = await new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 15_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`redis-server could not run (${error.message}); scripts/ensure-tools.sh installs it`));
      });
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (!ready) {
      if (attempt < 3) continue; // the port was taken between the check and the start
      throw new Error(`redis-server exited:\n${output}`);
    }
    return {
      url: `redis://127.0.0.1:${port}`,
      stop: () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    };
  }
}
