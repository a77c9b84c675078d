import { readFile } from 'node:fs/promises';
import type { WidgetScriptOptions } from '../../widget/options.js';

/**
 * The browser code of the product widget script (`src/widget/loader.ts`, typed and linted with the
 * DOM's types), served inside a function that hands it one product's options.
 *
 * An installed package serves the JavaScript `npm run build` compiled next to this module's own
 * (`dist/lib/widget/loader.js`). A checkout of the sources (`npm start`, the tests) compiles the
 * TypeScript once with esbuild instead, as it does the button's bundle (`widget-bundle.ts`).
 */
const BUILT = new URL('../../widget/loader.js', import.meta.url);
const SOURCE = new URL('../../widget/loader.ts', import.meta.url);

/** The module's statements alone: no module marker, no source map comment. */
const statements = (code: string) =>
  code
    .replace(/^export\s*\{\s*\};?\s*$/gm, '')
    .replace(/^\/\/# sourceMappingURL=.*$/gm, '')
    .trim();

async function compile(): Promise<string> {
  const built = await readFile(BUILT, 'utf8').catch(() => undefined);
  if (built !== undefined) return statements(built);
  const esbuild = await import('esbuild');
  const result = await esbuild.transform(await readFile(SOURCE, 'utf8'), { loader: 'ts', format: 'esm', target: 'es2021', legalComments: 'none' });
  return statements(result.code);
}

let loader: Promise<string> | undefined;

function loaderCode(): Promise<string> {
  loader ??= compile().catch((error: unknown) => {
    loader = undefined;
    throw error;
  });
  return loader;
}

/** The classic script a shop pastes: it puts the button where it stands and loads the bundle once. */
export async function widgetScript(options: WidgetScriptOptions): Promise<string> {
  const config = JSON.stringify(options).replace(/</g, '\\u003c');
  return `/* invoicekit product widget */\n(function (options) {\n${await loaderCode()}\n})(${config});\n`;
}
