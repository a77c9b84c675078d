/**
 * Internal reactive state (`private` fields declared in `static properties`) is no attribute, and an
 * event instance passed to `dispatchEvent` is not an event name: the analyzer reports both, so the
 * link phase takes them out. Events are documented by each class's `@fires` lines.
 */
function publicApiOnly() {
  return {
    name: 'invoicekit-public-api-only',
    packageLinkPhase({ customElementsManifest }) {
      for (const module of customElementsManifest.modules) {
        for (const declaration of module.declarations ?? []) {
          const privateFields = new Set((declaration.members ?? []).filter((m) => m.privacy === 'private').map((m) => m.name));
          if (declaration.attributes) declaration.attributes = declaration.attributes.filter((a) => !privateFields.has(a.fieldName));
          if (declaration.events) declaration.events = declaration.events.filter((e) => e.description);
          if (declaration.members) declaration.members = declaration.members.filter((m) => !m.privacy && !m.name.startsWith('#'));
        }
      }
    },
  };
}

/** The Custom Elements Manifest: read by editors, Storybook's docs pages and anyone wrapping the elements. */
export default {
  globs: ['src/elements/**/*.ts'],
  exclude: ['src/elements/**/*.styles.ts', 'src/elements/**/messages*.ts', 'src/elements/index.ts'],
  outdir: '.',
  litelement: true,
  dependencies: false,
  plugins: [publicApiOnly()],
};
