import { css } from 'lit';

/** The checkout dialog's own rules, adopted when its module loads (after the button's, as they always came). */
export const dialogStyles = css`
  h2 {
    font-weight: 600;
    font-size: 1em;
    margin: 0;
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
  dialog {
    width: min(var(--product-pay-button-dialog-width, 26rem), 100vw - 2rem);
    box-sizing: border-box;
    color: inherit;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  label {
    display: grid;
    gap: 0.25rem;
    margin: 0.8rem 0;
  }
  .check {
    display: block;
  }
  .check input {
    min-height: 0;
  }
  .summary {
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
  .total {
    font-weight: 700;
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
  .actions {
    display: flex;
    justify-content: end;
    gap: 0.5rem;
  }
`;
