import { css } from 'lit';

/** A row's KSeF state and the detail it opens. */
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
  .ksef-toggle[aria-expanded='true']::after {
    content: ' ▾';
  }
  .ksef-detail {
    max-width: 24rem;
    margin-top: 0.375rem;
    padding: 0.5rem 0.625rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius-small, 0.25rem);
    background: var(--_surface);
    font-size: 0.75rem;
    font-weight: 400;
    text-align: start;
    white-space: normal;
    cursor: auto;
  }
  .ksef-detail[hidden] {
    display: none;
  }
  .ksef-detail dl {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 0.125rem 0.75rem;
    margin: 0;
  }
  .ksef-detail dt {
    color: var(--_text-muted);
  }
  .ksef-detail dd {
    margin: 0;
  }
  .ksef-note {
    margin: 0.375rem 0 0;
  }
  .ksef-detail a {
    display: inline-block;
    margin-top: 0.375rem;
    color: var(--_accent);
  }
  /* Rows keep their height while scrolling: the detail opens over the rows below. */
  .scrolling th[part~='number'] {
    position: relative;
  }
  .scrolling .ksef-detail {
    position: absolute;
    z-index: 2;
    inset-inline-start: 0.5rem;
    top: 100%;
    box-shadow: var(--_shadow);
  }
`;
