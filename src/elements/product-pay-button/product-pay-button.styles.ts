import { css } from 'lit';

/** How the button's controls and the dialog's fields look: the button's own rule, and the dialog's for its inputs. */
export const controlLook = css`
  font: inherit;
  color: inherit;
  min-height: 2.5rem;
  padding: 0 1rem;
  border: 1px solid var(--_border);
  border-radius: var(--_radius-small);
  background: none;
`;

/** What shows before any click: the product's name, price and buy button, and the outcome after paying. */
export const styles = css`
  :host {
    display: inline-block;
  }
  /* A dark (or system-following) button brings its own surface, so its light text never stands on a light page. */
  :host(:not([theme='light'])) {
    padding: 0.5rem 0.75rem;
    border-radius: var(--_radius);
    background: var(--_surface);
  }
  .base {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 0.75rem;
  }
  .name {
    font-weight: 600;
  }
  .badge {
    font-size: 0.7rem;
    font-weight: 700;
    text-transform: uppercase;
    padding: 0 0.4rem;
    border: 1px solid;
    border-radius: 1rem;
    color: var(--_warning);
  }
  button {
    ${controlLook}
  }
  .buy {
    min-height: var(--product-pay-button-height, 2.75rem);
    padding: 0 var(--product-pay-button-padding, 1.25rem);
    font-size: var(--product-pay-button-font-size, 1em);
    font-weight: 600;
    border: 0;
    border-radius: var(--product-pay-button-radius, var(--_radius-small));
    background: var(--product-pay-button-background, var(--_accent));
    color: var(--product-pay-button-color, var(--_accent-text));
  }
  [disabled] {
    opacity: 0.6;
  }
  .ok {
    color: var(--_success);
  }
  .error {
    color: var(--_danger);
  }
`;
