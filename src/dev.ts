/** `invoicekit dev`: the demo on the embedded service. */
export async function runDev(argv: string[]): Promise<void> {
  void argv;
  throw new Error('the demo is not built yet');
}
