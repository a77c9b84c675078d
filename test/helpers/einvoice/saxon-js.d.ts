/** The part of SaxonJS's API (`saxon-js`, a dependency of `xslt3`) that the e-invoice validator calls. */
declare module 'saxon-js' {
  interface TransformOptions {
    stylesheetInternal: unknown;
    sourceText: string;
    destination: 'serialized';
    stylesheetParams?: Record<string, unknown>;
  }
  interface TransformResult {
    principalResult: string;
  }
  const SaxonJS: {
    transform(options: TransformOptions, mode: 'async'): Promise<TransformResult>;
  };
  export default SaxonJS;
}
