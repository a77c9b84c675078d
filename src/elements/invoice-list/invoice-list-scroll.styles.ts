import { css } from 'lit';

/**
 * Scroll mode's window, loaded with it (`scroll-window.ts`), which draws them in the scroller. Every
 * rule names the scroller, so none ties with the element's own styles, which a shadow root's adopted
 * sheets would win; the width rules come last here too.
 */
export const scrollStyles = css`
  .scrolling {
    --_row-height: var(--invoice-list-row-height, 4.5rem);
    position: relative;
    max-height: var(--invoice-list-max-height, 36rem);
    overflow-y: auto;
    overscroll-behavior: contain;
    /* The window keeps the position itself: its rows are reused in place as it moves, and the browser's
       scroll anchoring would follow a reused row and jump the list ahead by the window's step. */
    overflow-anchor: none;
    contain: content;
  }
  /* The row height comes from CSS, read once through this probe: rows never change height as they load. */
  .scrolling .probe {
    position: absolute;
    width: 1px;
    height: var(--_row-height);
    visibility: hidden;
    pointer-events: none;
  }
  /* Fixed columns and rows while scrolling: rows coming into view never resize them or relayout the table. */
  .scrolling table {
    table-layout: fixed;
  }
  /* The headers stay in view above the rows scrolling under them. */
  .scrolling thead th {
    position: sticky;
    top: 0;
    z-index: 1;
  }
  .scrolling :is(.row, .skeleton) {
    height: var(--_row-height);
    box-sizing: border-box;
  }
  .scrolling :is(.row, .skeleton) > * {
    padding-block: 0;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .scrolling .status > *,
  .scrolling .hint {
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .scrolling th.actions {
    width: 15rem;
  }
  .scrolling .spacer td {
    padding: 0;
    border: 0;
  }
  @container invoice-list (44rem < width <= 60rem) {
    .scrolling th.actions {
      width: 10rem;
    }
  }
  @container invoice-list (width <= 44rem) {
    .scrolling {
      --_row-height: var(--invoice-list-row-height, 12rem);
    }
    .scrolling .spacer,
    .scrolling .spacer td {
      display: block;
    }
  }
`;
