#!/usr/bin/env node
import { runBff } from './cli.js';

// `invoicekit-bff`: the BFF alone, for hosts that install only the BFF package (`invoicekit bff` is the same).
runBff(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
