/** What the service needs of its KSeF part at run time. */
export interface KsefRuntime {
  /** The bundled double's origin, when the service runs with `--ksef-local`. */
  localOrigin(): string | undefined;
  clock(): Date;
  /** Asks the sender to look at the queue soon (after the caller's transaction commits). */
  kick(): void;
  /** Listens for invoices the sender settled (numbered or failed); with none, for a look at every invoice. */
  onSettled?(listener: SettledListener): void;
}

export type SettledListener = (settled: { accountId: number; invoiceId: number } | undefined) => Promise<void>;
