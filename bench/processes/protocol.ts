import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Messages the benchmark sends to a process it started, and the helpers on both sides. */
export type ServiceCommand = { id: number } & (
  | { type: 'storage'; request: { method: string; path: string; body?: string }; durationMs: number }
  | { type: 'render'; invoiceId: number; count: number }
  | { type: 'bulk'; request: unknown }
  | { type: 'stop' }
);

export function reply(message: { id: number }, result: unknown): void {
  process.send!({ id: message.id, result });
}

export interface Child<Ready> {
  ready: Ready;
  process: ChildProcess;
  call<T>(command: Record<string, unknown> & { type: string }): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Starts `bench/processes/<name>.ts` as its own Node process (the same way the CLI runs: tsx), and
 * waits for its `ready` message. Load never comes from the process being measured.
 */
export async function startChild<Ready>(name: string, env: Record<string, string | undefined> = {}, execArgv: string[] = []): Promise<Child<Ready>> {
  const child = fork(fileURLToPath(new URL(`./${name}.ts`, import.meta.url)), [], {
    execArgv: ['--import', 'tsx', ...execArgv],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  let next = 1;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
    child.on('message', (message: { type?: string; id?: number; result?: unknown }) => {
      if (message.type === 'ready') resolve(message as Ready);
      else if (message.id !== undefined) {
        const waiter = waiting.get(message.id);
        waiting.delete(message.id);
        const result = message.result as { error?: string } | undefined;
        if (result && typeof result === 'object' && 'error' in result && result.error) waiter?.reject(new Error(`${name}: ${result.error}`));
        else waiter?.resolve(message.result);
      }
    });
  });
  const call = <T>(command: Record<string, unknown> & { type: string }) =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ ...command, id });
    });
  return {
    ready,
    process: child,
    call,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      call({ type: 'stop' }).catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
