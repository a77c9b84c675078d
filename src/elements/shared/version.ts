/** The package's version, which every element class carries: kept equal to `package.json` by test/elements/shared/registry.test.ts. */
export const VERSION = '0.1.0';
