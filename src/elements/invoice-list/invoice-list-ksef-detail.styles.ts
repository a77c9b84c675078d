import { css } from 'lit';

/**
 * An open KSeF detail, narrow widths included: loaded with its template (`ksef-detail.ts`), which
 * draws them in the panel. Every rule names the detail's own classes, so none ties with the element's
 * styles, which a shadow root's adopted sheets would win.
 */
export const ksefDetailStyles = css`
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
  /* An open KSeF detail on a card spans the card, number and total columns and the gap (not the number's half), its terms above their values. */
  @container invoice-list (width <= 44rem) {
    .ksef-detail {
      width: calc(200% + 1rem);
      inset-inline-start: 0;
      box-sizing: border-box;
    }
    .ksef-detail dl {
      grid-template-columns: 1fr;
    }
  }
`;
