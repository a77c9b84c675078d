import { css } from 'lit';
import { ksefStyles } from './invoice-list-ksef.styles.js';
import { paginationStyles, stateStyles } from './invoice-list-states.styles.js';
import { rowActionStyles, tableStyles } from './invoice-list-table.styles.js';
import { owedStyles, toolbarStyles } from './invoice-list-toolbar.styles.js';
import { widthStyles } from './invoice-list-widths.styles.js';

/** What every part of the list shares: the host, the frame, icons and the shape of every control. */
const baseStyles = css`
  .visually-hidden {
    position: absolute!important;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  /* As wide as its container gives it, also as a flex or grid item (size containment would shrink it). */
  :host {
    display: block;
    inline-size: 100%;
    box-sizing: border-box;
    container: invoice-list / inline-size;
    /* Tints only the list paints with: the other elements' first load carries none of them. */
    --_hover: color-mix(in srgb, var(--_text) 3%, transparent);
    --_skeleton: color-mix(in srgb, var(--_text) 7%, var(--_surface));
  }
  .frame {
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: var(--_shadow);
    overflow: hidden;
  }
  svg {
    width: 1.15em;
    height: 1.15em;
    flex: none;
    fill: none;
    stroke: currentColor;
    stroke-width: 1.7;
    stroke-linecap: round;
    stroke-linejoin: round;
  }
  p {
    margin: 0;
  }
  button,
  input,
  select,
  .action {
    font: inherit;
    color: var(--_text);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius-small);
    min-width: 0;
  }
  /* Every button and action link shares one shape; the sort headers undo it below. */
  button,
  .action {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.3rem;
    height: 2rem;
    padding: 0 0.75rem;
    font-weight: 500;
    text-decoration: none;
    vertical-align: middle;
  }
  button,
  select,
  .chip input {
    cursor: pointer;
  }
  :where(button, .action):not([disabled]):hover,
  .chip:hover span {
    background: var(--_hover);
  }
  [disabled] {
    opacity: 0.5;
    cursor: default;
  }
`;

/** The element's styles, part by part, in cascade order: the width rules come last and win. */
export const styles = [baseStyles, toolbarStyles, owedStyles, tableStyles, ksefStyles, rowActionStyles, paginationStyles, stateStyles, widthStyles];
