import { css } from 'lit';

/**
 * How the customer's last payment ended: loaded with the pay flow (`payment-flow.ts`), which draws them
 * in the outcome. Every rule names the outcome's own class, so none ties with the element's styles.
 */
export const payOutcomeStyles = css`
  .pay-outcome {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 0.75rem;
    margin-bottom: 0.75rem;
    padding: 0.75rem 1rem;
    border-radius: var(--_radius-small);
    border-inline-start: 4px solid var(--_danger);
    background: color-mix(in srgb, var(--_danger) 8%, transparent);
    color: var(--_text);
  }
  .pay-outcome.paid {
    border-color: var(--_success);
    background: color-mix(in srgb, var(--_success) 8%, transparent);
  }
  .pay-outcome.pending {
    border-color: var(--_accent);
    background: color-mix(in srgb, var(--_accent) 8%, transparent);
  }
  .pay-outcome p {
    flex: 1 1 16rem;
    margin: 0;
  }
`;
