import { startModuleWorker } from '../module-worker.js';
import { LogoImageError, type NormalizedLogo } from './logo-image.js';
import type { LogoResult } from './logo-worker.js';

export interface LogoDecodeLimits {
  /** How long decoding one logo may take before its thread is ended. */
  timeoutMs: number;
  /** Heap of the decoding thread, in MiB. */
  memoryMb: number;
}

export const DEFAULT_LOGO_DECODE_LIMITS: Readonly<LogoDecodeLimits> = { timeoutMs: 10_000, memoryMb: 256 };

/**
 * Decodes and normalizes an uploaded logo on a thread of its own, never on the thread that answers
 * requests: decoding is seconds of CPU for a large image. The thread's heap is capped and it is
 * ended after `timeoutMs`; either way the logo is refused as a `LogoImageError`.
 */
export function normalizeLogoOffThread(bytes: Uint8Array, limits: LogoDecodeLimits = DEFAULT_LOGO_DECODE_LIMITS): Promise<NormalizedLogo> {
  const worker = startModuleWorker(new URL('./logo-worker', import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: 32 },
  });
  return new Promise<NormalizedLogo>((resolve, reject) => {
    const timer = setTimeout(() => fail(new LogoImageError(`could not be decoded within ${limits.timeoutMs / 1000} s`)), limits.timeoutMs);
    const done = () => {
      clearTimeout(timer);
      worker.removeAllListeners();
      worker.on('error', () => undefined);
      void worker.terminate();
    };
    const fail = (error: Error) => {
      done();
      reject(error);
    };
    worker.once('message', (result: LogoResult) => {
      done();
      if (result.ok) resolve({ contentType: result.contentType, content: result.content, width: result.width, height: result.height });
      else reject(result.invalid ? new LogoImageError(result.message) : new Error(result.message));
    });
    worker.once('error', (error) => fail((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? new LogoImageError('needs too much memory to decode') : error));
    worker.once('exit', (code) => fail(new Error(`the logo decoder stopped (${code})`)));
    worker.postMessage(bytes);
  });
}
