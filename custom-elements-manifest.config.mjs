/**
 * Internal reactive state (`private` fields declared in `static properties`) is no attribute, and an
 * event instance passed to `dispatchEvent` is not an event name: the analyzer reports both, so the
 * link phase takes them out. Events are documented by each class's `@fires` lines.
 */
function publicApiOnly() {
  return {
    name: 'invoicekit-public-api-only',
    packageLinkPhase({ customElementsManifest }) {
      // The analyzer lists modules in the order its file search answered, which a busy machine changes: by path, always.
      customElementsManifest.modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
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

/** `@attr {type} name - description` in a class's JSDoc, as comment-parser reads it (one tag a line). */
const ATTR_TAG = /^\s*\*\s*@attr(?:ibute)?\s+\{([^}]+)\}\s+([\w-]+)(?:\s+-\s+(.*))?$/;

/**
 * The class's `@attr` lines are the attributes' contract: their types are written out as literal unions
 * (`'create' | 'edit'`), which editors offer as values, where the field's type is an alias
 * (`ClientFormMode`) that means nothing outside the source. The analyzer lets the field win; this puts
 * the JSDoc's type and description back on the attribute and its field.
 * test/elements/manifest.test.ts checks each `@attr` type against the field's real type.
 */
function attributeTypesFromJsDoc() {
  return {
    name: 'invoicekit-attribute-types-from-jsdoc',
    analyzePhase({ ts, node, moduleDoc }) {
      if (node.kind !== ts.SyntaxKind.ClassDeclaration || !node.name) return;
      const declaration = moduleDoc.declarations?.find((d) => d.name === node.name.getText());
      if (!declaration) return;
      for (const jsDoc of node.jsDoc ?? []) {
        for (const line of jsDoc.getFullText().split('\n')) {
          const tag = ATTR_TAG.exec(line);
          if (!tag) continue;
          const [, type, name, description] = tag;
          const attribute = declaration.attributes?.find((a) => a.name === name);
          if (!attribute?.fieldName) throw new Error(`${declaration.name}: @attr ${name} names no attribute of the class`);
          attribute.type = { text: type.trim() };
          if (description) attribute.description = description.trim();
          const field = declaration.members?.find((m) => m.kind === 'field' && m.name === attribute.fieldName);
          if (field) field.type = { text: type.trim() };
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
  plugins: [attributeTypesFromJsDoc(), publicApiOnly()],
};
