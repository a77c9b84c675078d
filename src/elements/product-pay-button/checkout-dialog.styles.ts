import { css } from 'lit';
import { controlLook } from './product-pay-button.styles.js';

/** The checkout dialog's own rules, adopted when its module loads (after the button's, as they always came). */
export const dialogStyles = css`
  input,
  select {
    ${controlLook}
  }
  dialog {
    width: min(var(--product-pay-button-dialog-width, 40rem), 100vw - 2rem);
    box-sizing: border-box;
    padding: 0 1.25rem;
    color: inherit;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  /* The page behind the open dialog is dimmed: nothing on it can be used until the dialog closes. */
  dialog::backdrop {
    background: var(--product-pay-button-backdrop, rgb(16 24 40 / 0.45));
  }
  form {
    container-type: inline-size;
  }
  h2 {
    margin: 1.25rem 2.5rem 0 0;
    font-size: 1.375em;
  }
  .close {
    position: absolute;
    top: 0.75rem;
    right: 0.75rem;
    width: 2.5rem;
    padding: 0;
    border: 0;
  }
  /* One column on a phone, with post code beside city (half); two where the dialog has room (pair). */
  .fields {
    display: grid;
    grid-template-columns: repeat(2, minmax(0, 1fr));
    gap: 0.75rem 1rem;
    margin: 1rem 0;
  }
  .fields > * {
    grid-column: 1 / -1;
    margin: 0;
  }
  .half {
    grid-column: auto;
  }
  @container (width >= 30rem) {
    .pair {
      grid-column: auto;
    }
  }
  label {
    display: grid;
    align-content: start;
    gap: 0.25rem;
  }
  label > * {
    min-width: 0;
  }
  .check {
    display: flex;
    align-items: center;
    gap: 0.5rem;
  }
  .check input {
    min-height: 0;
    margin: 0;
    accent-color: var(--_accent);
  }
  .field-error {
    color: var(--_danger);
  }
  .field-error,
  .note {
    font-size: 0.875em;
  }
  /* The register lookup's status takes no row until it has something to say (a live region all the same). */
  .note:empty {
    position: absolute;
  }
  [aria-invalid='true'] {
    border-color: var(--_danger);
  }
  .summary {
    margin: 0;
    padding: 0.5rem 1rem;
    border-radius: var(--_radius-small);
    background: var(--_surface-sunken);
  }
  dl div {
    display: flex;
    justify-content: space-between;
  }
  dd {
    margin: 0;
  }
  [part~='total'] {
    font-size: 1.25em;
    font-weight: 700;
  }
  small {
    font-size: 0.7em;
    font-weight: 400;
    color: var(--_text-muted);
  }
  .summary.stale {
    opacity: 0.6;
  }
  .note ul {
    margin: 0.25rem 0;
    padding-inline-start: 1.25rem;
  }
  [part='lookup-button'] {
    justify-self: start;
  }
  /* Continue stays in sight while the fields scroll; a payment method's block sits above the actions. */
  .payment {
    position: sticky;
    bottom: 0;
    padding: 0.75rem 0 1.25rem;
    background: var(--_surface);
  }
  .actions {
    display: flex;
    justify-content: end;
    gap: 0.5rem;
  }
`;
