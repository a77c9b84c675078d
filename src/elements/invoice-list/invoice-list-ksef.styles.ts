import { css } from 'lit';

/** A row's KSeF state and the button that opens its detail; the open detail's styles load with it (`invoice-list-ksef-detail.styles.ts`). */
export const ksefStyles = css`
  .ksef {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0 0.5rem;
    margin-top: 0.125rem;
    font-size: 0.75rem;
    font-weight: 400;
    color: var(--_text-muted);
  }
  .ksef-state::before {
    content: '';
    display: inline-block;
    width: 0.375rem;
    height: 0.375rem;
    margin-right: 0.3rem;
    border-radius: 50%;
    vertical-align: middle;
    background: var(--invoice-list-ksef-color, var(--_info));
  }
  .ksef.sent .ksef-state::before {
    background: var(--invoice-list-ksef-sent-color, var(--_success));
  }
  .ksef.error {
    color: var(--_danger);
  }
  .ksef.error .ksef-state::before {
    background: currentColor;
  }
  .ksef-number {
    font-variant-numeric: tabular-nums;
  }
  .ksef-toggle {
    margin-top: 0.125rem;
    padding: 0;
    border: 0;
    background: none;
    font: inherit;
    font-size: 0.75rem;
    font-weight: 400;
    color: var(--_accent);
    text-decoration: underline;
    cursor: pointer;
  }
  .ksef-toggle::after {
    content: ' ▸';
  }
  .ksef-toggle[aria-expanded=true]::after {
    content: ' ▾';
  }
`;
