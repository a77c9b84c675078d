import { parentPort } from 'node:worker_threads';
import { LogoImageError, normalizeLogo } from './logo-image.js';

/** One logo decoding thread (see `logo-thread.ts`): the uploaded bytes in, the normalized logo or the reason out. */
export type LogoResult =
  | { ok: true; contentType: 'image/png' | 'image/jpeg'; content: Uint8Array; width: number; height: number }
  | { ok: false; invalid: boolean; message: string };

parentPort?.once('message', (bytes: Uint8Array) => {
  let result: LogoResult;
  try {
    result = { ok: true, ...normalizeLogo(bytes) };
  } catch (error) {
    result = { ok: false, invalid: error instanceof LogoImageError, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(result);
});
