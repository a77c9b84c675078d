/** ISO Schematron → XSLT 3: not yet written. */
export function compileSchematron(path: string): Promise<string> {
  return Promise.reject(new Error(`Schematron is not compiled yet: ${path}`));
}
