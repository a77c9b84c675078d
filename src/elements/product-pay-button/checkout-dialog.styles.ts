import { css } from 'lit';

/** The checkout dialog's own rules, adopted when its module loads (after the button's, as they always came). */
export const dialogStyles = css`
  dialog {
    width: min(var(--product-pay-button-dialog-width, 40rem), 100vw - 2rem);
    box-sizing: border-box;
    padding: 0;
    color: inherit;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  form {
    container-type: inline-size;
    padding: 1.25rem 1.25rem 0;
  }
  .head {
    display: flex;
    align-items: start;
    justify-content: space-between;
    gap: 1rem;
  }
  h2 {
    margin: 0;
    font-size: 1.375em;
    font-weight: 650;
    line-height: 1.25;
  }
  .close {
    flex: none;
    width: 2.25rem;
    min-height: 2.25rem;
    margin: -0.25rem -0.5rem 0 0;
    padding: 0;
    border: 0;
  }
  .close:hover {
    background: var(--_hover);
  }
  .seller {
    margin: 0.25rem 0 0;
    color: var(--_text-muted);
  }
  /* One column on a phone (post code beside city even there), two where the dialog has room. */
  .fields {
    display: grid;
    grid-template-columns: minmax(0, 1fr) minmax(0, 2fr);
    gap: 0.75rem 1rem;
    margin: 1rem 0;
  }
  .fields > * {
    grid-column: 1 / -1;
    margin: 0;
  }
  .fields > .half {
    grid-column: auto;
  }
  @container (width >= 30rem) {
    .fields {
      grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
    }
    .fields > .pair {
      grid-column: auto;
    }
  }
  label {
    display: grid;
    align-content: start;
    gap: 0.25rem;
  }
  label > *,
  .control input {
    min-width: 0;
  }
  .control {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  .control input {
    flex: 1 1 8rem;
  }
  .check {
    display: flex;
    align-items: center;
    gap: 0.5rem;
  }
  .check input {
    min-height: 0;
  }
  .field-error {
    color: var(--_danger);
  }
  .field-error,
  .note {
    font-size: 0.875em;
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
    align-items: baseline;
    gap: 1rem;
  }
  dd {
    margin: 0;
  }
  [part~='total'] {
    margin-top: 0.25rem;
    padding-top: 0.375rem;
    border-top: 1px solid var(--_border);
    font-size: 1.25em;
    font-weight: 700;
  }
  [part~='total'] small {
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
  form > .error:empty {
    margin: 0;
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
    flex-wrap: wrap;
    justify-content: end;
    gap: 0.5rem;
  }
`;
