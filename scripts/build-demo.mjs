// Builds the demo site into dist/demo/, which the published package's `invoicekit dev` serves
// without Vite. Every page in demo/ is an entry, so a new page needs no change here.
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('../demo/', import.meta.url));
const pages = (await readdir(root)).filter((name) => name.endsWith('.html'));
await build({
  root,
  configFile: false,
  logLevel: 'warn',
  // The elements' production modules: without the development warnings, as the package ships them.
  plugins: [
    {
      name: 'invoicekit:production-elements',
      load: (id) => (/\/src\/elements\/shared\/dev-mode\.ts$/.test(id) ? 'export const DEV = false;' : null),
    },
  ],
  build: {
    outDir: fileURLToPath(new URL('../dist/demo/', import.meta.url)),
    emptyOutDir: true,
    reportCompressedSize: false,
    target: 'es2022',
    rolldownOptions: {
      input: Object.fromEntries(pages.map((name) => [name.replace(/\.html$/, ''), `${root}${name}`])),
      // `npm start` builds the site before serving it: a note on how long our own plugins took is
      // for whoever works on the build, not for someone starting the demo on a busy machine.
      checks: { bundlerTimings: false },
    },
  },
});
