// `@invoicekit/elements/vue` and `/svelte` hold template typings only (see vue.d.ts, svelte.d.ts):
// importing them at run time is harmless and adds nothing.
export {};
