import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseSync, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Every element's registration entry, built alone as `dist/elements/<tag-name>.js`: each folder of
 * `src/elements/` with a `define.ts` is an element, so a new element needs no change here.
 */
const elements = Object.fromEntries(
  readdirSync('src/elements', { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`src/elements/${entry.name}/define.ts`))
    .map((entry) => [entry.name, `src/elements/${entry.name}/define.ts`]),
);

/** The React wrappers: `frameworks/react.js` with all of them, and `frameworks/react/<tag-name>.js` for one element. */
const reactWrappers = {
  'frameworks/react': 'src/frameworks/react.ts',
  ...Object.fromEntries(Object.keys(elements).map((name) => [`frameworks/react/${name}`, `src/frameworks/react/${name}.ts`])),
};

/**
 * Classic scripts (IIFE, Lit inside) for pages that cannot load modules: every element in
 * `dist/invoicekit.classic.js`, and the buy button alone in `dist/widget/product-pay-button.js`,
 * which the service's product widget script loads.
 */
const classicBuilds: Record<string, { entry: string; file: string }> = {
  classic: { entry: 'src/elements/index.ts', file: 'invoicekit.classic.js' },
  widget: { entry: 'src/elements/product-pay-button/define.ts', file: 'widget/product-pay-button.js' },
};

/**
 * A stylesheet without comments and the spaces CSS does not need: around braces, semicolons, commas
 * and the `>` and `+` combinators. Inside parentheses a `+` keeps its spaces, which `calc()` needs
 * (`calc(200% + 1rem)`); a `-` keeps them everywhere.
 */
export function minifyCss(text: string): string {
  let depth = 0;
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/[()]| ?([{};,>+]) ?/g, (match, sign: string | undefined) => {
      if (match === '(') depth += 1;
      else if (match === ')') depth -= 1;
      else if (sign === '+' && depth > 0) return match;
      return sign ?? match;
    })
    .replace(/: /g, ':')
    .replace(/;}/g, '}')
    .replace(/([ :,(])0\./g, '$1.');
}
// Whitespace between Lit template parts only ever renders as one space, so runs shrink to one.
const minifyHtml = (text: string) => text.replace(/\s*\n\s*/g, ' ');

/**
 * Strips the indentation and comments out of Lit's `css`, `html` and `svg` template literals. Minifiers
 * keep template text as written, and in elements that text is most of the bytes. A `css` template
 * becomes `unsafeCSS()` of the same text, a plain template literal: the stylesheet is the same (a
 * `CSSResult` interpolated into a template literal gives its `cssText`), and a module whose styles
 * were all written so leaves Lit's `css` tag, with its template joining and its error messages, out
 * of the bundle. TypeScript has already checked what the templates interpolate.
 */
/** The name `unsafeCSS` is imported under in a module whose `css` templates were rewritten. */
const UNSAFE_CSS = '__invoicekitUnsafeCSS';

export function minifyLitTemplates(): Plugin {
  return {
    name: 'invoicekit:minify-lit-templates',
    apply: 'build',
    transform(code, id) {
      if (!/\/src\/(elements|admin)\/.*\.ts$/.test(id) || !/\b(css|html|svg)`/.test(code)) return null;
      const edits: { start: number; end: number; text: string }[] = [];
      let unsafeCss = false;
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node)) return node.forEach(visit);
        // An ESTree node from the parser: its shape is checked field by field below.
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const n = node as Record<string, any>;
        if (n.type === 'TaggedTemplateExpression' && n.tag?.type === 'Identifier' && (n.tag.name === 'css' || n.tag.name === 'html' || n.tag.name === 'svg')) {
          const minify = n.tag.name === 'css' ? minifyCss : minifyHtml;
          for (const quasi of n.quasi.quasis) {
            const raw: string = quasi.value.raw;
            const at = code.indexOf(raw, quasi.start);
            if (raw && at >= 0 && at + raw.length <= quasi.end) edits.push({ start: at, end: at + raw.length, text: minify(raw) });
          }
          if (n.tag.name === 'css' && code.slice(n.start, n.start + 4) === 'css`' && code[n.end - 1] === '`') {
            edits.push({ start: n.start, end: n.start + 3, text: `${UNSAFE_CSS}(` }, { start: n.end, end: n.end, text: ')' });
            unsafeCss = true;
          }
        }
        for (const key in n) if (key !== 'parent') visit(n[key]);
      };
      visit(parseSync(id, code).program);
      let out = code;
      for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
      if (unsafeCss) out = `import { unsafeCSS as ${UNSAFE_CSS} } from 'lit';\n${out}`;
      return { code: out, map: null };
    },
  };
}

/**
 * The package's production modules ship without the development warnings: `DEV` becomes a constant
 * `false` and the minifier drops what depends on it. Apps built from the sources (Storybook) keep them.
 */
function productionMode(): Plugin {
  return {
    name: 'invoicekit:production-mode',
    apply: (config, env) => env.command === 'build' && env.mode !== 'development' && !!config.build?.lib,
    load(id) {
      return /\/src\/elements\/shared\/dev-mode\.ts$/.test(id) ? 'export const DEV = false;' : null;
    },
  };
}

/**
 * The React wrapper imports each element's published module (`../elements/<tag>.js`) instead of
 * bundling its sources: the element modules are chunked exactly as without the wrapper, and a page
 * that loads both an element and its wrapper registers the tag from one module.
 */
function wrapperImportsElementModules(): Plugin {
  return {
    name: 'invoicekit:wrapper-imports-element-modules',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      const element = importer && /\/src\/frameworks\//.test(importer) ? /^((?:\.\.\/)+elements\/[\w-]+)\/define\.js$/.exec(source) : null;
      // `dist/` mirrors `src/` (`src/elements/<tag>/define.ts` is `dist/elements/<tag>.js`), so the relative path holds.
      return element ? { id: `${element[1]}.js`, external: true } : null;
    },
  };
}

/**
 * The seed of the test files' shuffled order: `INVOICEKIT_TEST_SEED` replays an order, and without it
 * vitest picks one (the time) and prints it at the start of the run.
 */
function testSeed(): number | undefined {
  const given = process.env.INVOICEKIT_TEST_SEED;
  if (given === undefined || given === '') return undefined;
  if (!/^\d{1,15}$/.test(given)) throw new Error(`INVOICEKIT_TEST_SEED must be a whole number, not ${JSON.stringify(given)}`);
  return Number(given);
}

/**
 * `vite build` writes the per-element modules for bundler users: Lit stays bare
 * imports, so a page that already uses Lit loads it once. `vite build --mode development` writes the
 * same modules with the development warnings to `dist/dev/`, which the package's `development` export
 * condition selects (as Lit's own development build is chosen). `vite build --mode standalone` writes
 * `dist/invoicekit.js`, one self-contained, minified module that registers every element, for a
 * `<script type="module">` tag. `--mode classic` and `--mode widget` write the classic scripts above.
 * `--mode admin` writes the back office's one module, `dist/admin/admin.js`, apart from the elements'.
 */
export default defineConfig(({ mode }) => ({
  plugins: [minifyLitTemplates(), productionMode(), wrapperImportsElementModules()],
  build:
    mode in classicBuilds
      ? {
          emptyOutDir: false,
          target: 'es2021',
          lib: { entry: classicBuilds[mode]!.entry, formats: ['iife' as const], name: 'invoicekit', fileName: () => classicBuilds[mode]!.file },
          rolldownOptions: { output: { minify: true, codeSplitting: false } },
        }
      : mode === 'admin'
      ? {
          emptyOutDir: false,
          outDir: 'dist/admin',
          target: 'es2021',
          lib: { entry: 'src/admin/main.ts', formats: ['es' as const], fileName: () => 'admin.js' },
          rolldownOptions: { output: { minify: true, codeSplitting: false } },
        }
      : mode === 'standalone'
      ? {
          emptyOutDir: false,
          target: 'es2022',
          sourcemap: true,
          lib: { entry: 'src/elements/index.ts', formats: ['es' as const], fileName: () => 'invoicekit.js' },
          rolldownOptions: { output: { minify: true, codeSplitting: false } },
        }
      : {
          // `--mode development` writes the same modules with the development warnings kept, to `dist/dev/`.
          outDir: mode === 'development' ? 'dist/dev' : 'dist',
          emptyOutDir: mode !== 'development',
          target: 'es2022',
          minify: false,
          sourcemap: true,
          // The React wrappers are built with the elements and import their published modules (see wrapperImportsElementModules).
          lib: {
            // `elements/index.js` registers every element with Lit as a bare import: the root's `node` entry.
            entry: { ...elements, index: 'src/elements/index.ts', ...reactWrappers },
            formats: ['es' as const],
            fileName: (_format: string, name: string) => (name in reactWrappers ? `${name}.js` : `elements/${name}.js`),
          },
          rolldownOptions: {
            external: [/^lit($|\/)/, /^@lit\//, /^ky($|\/)/, /^react($|\/)/],
            output: {
              // The wrappers' own shared code sits with them, outside the elements' side-effect globs.
              chunkFileNames: (chunk) => (chunk.moduleIds.every((id) => id.includes('/src/frameworks/')) ? 'frameworks/shared/[name]-[hash].js' : 'elements/shared/[name]-[hash].js'),
            },
          },
        },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/elements/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One test file per core. Vitest's own default leaves a core free (one worker on two cores), and
    // these files wait on the servers, browsers and installs they start as much as they compute
    // (docs/decisions/test-suite-time.md). `VITEST_MAX_WORKERS` or `--maxWorkers` still override it.
    maxWorkers: availableParallelism(),
    // Each worker loads our modules once for all the files it runs, not once per file: a fifth of the
    // run's time was importing them again (docs/measurements/test-suite-time.md). Files therefore leave
    // nothing behind: environment stubs and spies are undone after each test, and a service, server
    // or browser a file starts is stopped in its afterAll.
    isolate: false,
    // Files run in a shuffled order, a new one each run, so that a file depending on what another
    // left behind fails instead of passing by luck (docs/decisions/shuffled-test-files.md). The seed
    // is printed at the start; `INVOICEKIT_TEST_SEED=<seed>` (or `--sequence.seed`) replays it.
    sequence: { shuffle: { files: true, tests: false }, seed: testSeed() },
    unstubEnvs: true,
    unstubGlobals: true,
    restoreMocks: true,
    // `expect.poll` waits on a browser or a server: ten seconds, not the one-second default that a
    // machine running two test files and their browsers at once can miss.
    expect: { poll: { timeout: 10_000 } },
  },
}));
