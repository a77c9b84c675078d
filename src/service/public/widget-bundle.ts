import { join } from 'node:path';
import { locateBundle, onceBundled, packageRoot } from './source-bundle.js';

/**
 * The `<product-pay-button>` bundle the widget script loads: one classic script (an IIFE with Lit
 * inside), so it runs on any page, module-capable or not.
 *
 * An installed package serves the file `npm run build` wrote to `dist/widget/`. A checkout of the
 * sources (`npm start`, the tests) whose elements changed after the last build bundles them once
 * with esbuild instead, so the widget never serves a stale button (`source-bundle.ts`).
 */
export type { SourceBundle as WidgetBundle } from './source-bundle.js';

const ROOT = packageRoot();
const SOURCES = join(ROOT, 'src');

/** The button's bundle, made once per process. */
export const widgetBundle = onceBundled(() =>
  locateBundle({
    built: join(ROOT, 'dist/widget/product-pay-button.js'),
    entry: join(SOURCES, 'elements/product-pay-button/define.ts'),
    sources: [join(SOURCES, 'elements'), join(SOURCES, 'contract'), join(SOURCES, 'kernel')],
    format: 'iife',
    missing: 'The widget bundle is missing: run `npm run build`.',
  }),
);
