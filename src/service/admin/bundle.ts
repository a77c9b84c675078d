import { dirname, join } from 'node:path';
import { locateBundle, onceBundled, packageRoot } from '../public/source-bundle.js';

/**
 * The back office's script: one ES module with Lit and its views inside, bundled apart from the
 * elements. An installed package serves what `npm run build` wrote to `dist/admin/admin.js`; a
 * checkout of the sources whose code changed after the last build bundles `src/admin/main.ts`
 * once with esbuild instead, as the widget's bundle does (`public/source-bundle.ts`).
 */
export type { SourceBundle as AdminBundle } from '../public/source-bundle.js';

const ROOT = packageRoot();
export const ADMIN_BUILT = join(ROOT, 'dist/admin/admin.js');
export const ADMIN_ENTRY = join(ROOT, 'src/admin/main.ts');

/**
 * The built file when it is newer than the sources, else the sources bundled now, else the built
 * file. The sources are the entry's folder and, for the back office's own entry, the elements it
 * previews and the shared rooms it imports.
 */
export function locateAdminBundle(entry = ADMIN_ENTRY, built = ADMIN_BUILT): Promise<string> {
  const src = join(ROOT, 'src');
  const shared = entry === ADMIN_ENTRY ? ['elements', 'contract', 'kernel'].map((room) => join(src, room)) : [];
  return locateBundle({ built, entry, sources: [dirname(entry), ...shared], format: 'esm', missing: 'The back office bundle is missing: run `npm run build`.' });
}

/** The back office's bundle, made once per process. */
export const adminBundle = onceBundled(() => locateAdminBundle());
