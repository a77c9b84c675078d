import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { withActions } from 'storybook/actions/decorator';
import '../src/elements/product-pay-button/define.js';
import type { ProductPayButton } from '../src/elements/product-pay-button/product-pay-button.js';
import { until } from './support/until.js';

/**
 * BLIK on the page (docs/decisions/blik-on-the-page.md): every state of the pay button's BLIK field,
 * wait and outcome, against the stand-in's `blik…` scenarios (stories/support/bff-stand-in.ts).
 */
interface Args {
  scenario: string;
  product: string;
  locale: string;
  theme: 'light' | 'dark' | 'auto';
}

type Play = NonNullable<StoryObj<Args>['play']>;
const part = <T extends Element = HTMLElement>(el: ProductPayButton, name: string) => el.shadowRoot!.querySelector<T>(`[part~="${name}"]`);

/** Opens the dialog as a buyer does, types e-mail and name, and waits for the server's price. */
async function openDialog(el: ProductPayButton): Promise<void> {
  await until(() => !!part(el, 'price'), 5_000);
  part<HTMLButtonElement>(el, 'button')!.click();
  await el.updateComplete;
  const form = part<HTMLFormElement>(el, 'form')!;
  for (const [name, value] of [['email', 'ada@example.com'], ['name', 'Ada Lovelace']] as const) {
    form.querySelector<HTMLInputElement>(`input[name="${name}"]`)!.value = value;
  }
  await until(() => part<HTMLButtonElement>(el, 'continue-button')?.disabled === false, 3_000);
}

/** Types a BLIK code as a buyer pastes it, and presses "Pay with BLIK". */
async function payWithBlik(el: ProductPayButton, typed: string): Promise<void> {
  await openDialog(el);
  const input = part<HTMLInputElement>(el, 'blik-code')!;
  input.value = typed;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  el.shadowRoot!.querySelector<HTMLButtonElement>('fieldset [part~="blik-button"]')!.click();
}

const play =
  (steps: (el: ProductPayButton) => Promise<void>): Play =>
  async ({ canvasElement }) => {
    const el = canvasElement.querySelector('product-pay-button')!;
    await steps(el);
    await el.updateComplete;
  };

const blik = (typed: string) => play((el) => payWithBlik(el, typed));

/** Waits past the bank app's answer (the stand-in's second look, about 4 s) so the outcome shows. */
const blikOutcome = (typed = '777123') =>
  play(async (el) => {
    await payWithBlik(el, typed);
    await until(() => !!part(el, 'blik-status')?.querySelector('.actions'), 6_000);
  });

/** `theme="dark"` in a dark section of a light page. */
const darkSection = [(story: () => unknown) => html`<section style="background: #090d16; padding: 2rem; border-radius: 12px">${story()}</section>`];

const meta: Meta<Args> = {
  title: 'Elements/product-pay-button/BLIK on the page',
  component: 'product-pay-button',
  decorators: [withActions],
  parameters: {
    actions: { handles: ['pay-before', 'pay-start', 'pay-success', 'pay-cancel', 'pay-error'] },
    docs: {
      description: {
        component:
          'Where the product says `blik: true` (a provider that takes BLIK codes, a price in PLN), the dialog offers a six-digit field with "Pay with BLIK" beside Continue; then the wait for the bank app with the time left, then the invoice or why it failed, with Try again and Pay another way. A stand-in answers for the BFF: `blik` is approved on its second look, `blik-waiting` never answers, the others fail with their reason.',
      },
    },
  },
  args: { scenario: 'blik', product: 'logo-design', locale: 'en', theme: 'light' },
  argTypes: {
    scenario: {
      control: 'select',
      options: ['blik', 'blik-waiting', 'blik-wrong-code', 'blik-expired-code', 'blik-declined', 'blik-timeout', 'blik-provider-error', 'blik-invalid'],
    },
    theme: { control: 'inline-radio', options: ['light', 'dark', 'auto'] },
    locale: { control: 'inline-radio', options: ['en', 'pl'] },
  },
  render: (args) => html`<product-pay-button endpoint="/storybook-bff/${args.scenario}" product=${args.product} locale=${args.locale} theme=${args.theme}
    @pay-start=${(event: Event) => event.preventDefault()}></product-pay-button>`,
};
export default meta;

type Story = StoryObj<Args>;

/** BLIK on the page: a product in PLN whose account's provider takes BLIK codes offers the six-digit field beside Continue. */
export const BlikField: Story = { args: { scenario: 'blik' }, play: play((el) => openDialog(el)) };

export const BlikFieldPolish: Story = { ...BlikField, args: { ...BlikField.args, locale: 'pl' } };

export const BlikFieldDark: Story = { ...BlikField, args: { ...BlikField.args, theme: 'dark' }, decorators: darkSection };

/** Five digits: the dialog says so at the field and sends nothing. */
export const BlikTypingError: Story = { args: { scenario: 'blik' }, play: blik('12345') };

export const BlikTypingErrorPolish: Story = { ...BlikTypingError, args: { ...BlikTypingError.args, locale: 'pl' } };

/** The code is sent: "Confirm the payment in your bank app" with the two minutes counting down, asked every 2 s. */
export const BlikWaiting: Story = { args: { scenario: 'blik-waiting' }, play: blik('777 123') };

export const BlikWaitingPolish: Story = { ...BlikWaiting, args: { ...BlikWaiting.args, locale: 'pl' } };

export const BlikWaitingDark: Story = { ...BlikWaiting, args: { ...BlikWaiting.args, theme: 'dark' }, decorators: darkSection };

/** The wait on a phone, 390 px wide. */
export const BlikWaitingPhone: Story = {
  ...BlikWaiting,
  tags: ['phone'],
  parameters: { viewport: { defaultViewport: 'mobile2' } },
  decorators: [(story) => html`<div style="width: 390px">${story()}</div>`],
};

/** Approved in the bank app: the invoice, with a link to it; `pay-success` fired. */
export const BlikPaid: Story = { args: { scenario: 'blik' }, play: blikOutcome() };

export const BlikPaidPolish: Story = { ...BlikPaid, args: { ...BlikPaid.args, locale: 'pl' } };

export const BlikPaidDark: Story = { ...BlikPaid, args: { ...BlikPaid.args, theme: 'dark' }, decorators: darkSection };

/** The provider refused the code at once: wrong. "Try again" takes a new code; "Pay another way" goes to the payment page. */
export const BlikWrongCode: Story = { args: { scenario: 'blik-wrong-code' }, play: blik('111111') };

export const BlikWrongCodePolish: Story = { ...BlikWrongCode, args: { ...BlikWrongCode.args, locale: 'pl' } };

export const BlikWrongCodeDark: Story = { ...BlikWrongCode, args: { ...BlikWrongCode.args, theme: 'dark' }, decorators: darkSection };

/** The code had expired before it was sent. */
export const BlikExpiredCode: Story = { args: { scenario: 'blik-expired-code' }, play: blik('222222') };

export const BlikExpiredCodePolish: Story = { ...BlikExpiredCode, args: { ...BlikExpiredCode.args, locale: 'pl' } };

/** The buyer declined in the bank app. */
export const BlikDeclined: Story = { args: { scenario: 'blik-declined' }, play: blikOutcome('333333') };

export const BlikDeclinedPolish: Story = { ...BlikDeclined, args: { ...BlikDeclined.args, locale: 'pl' } };

/** The bank app gave no answer before the code expired. */
export const BlikTimeout: Story = { args: { scenario: 'blik-timeout' }, play: blikOutcome('444444') };

export const BlikTimeoutPolish: Story = { ...BlikTimeout, args: { ...BlikTimeout.args, locale: 'pl' } };

/** The provider failed. */
export const BlikProviderError: Story = { args: { scenario: 'blik-provider-error' }, play: blikOutcome() };

export const BlikProviderErrorPolish: Story = { ...BlikProviderError, args: { ...BlikProviderError.args, locale: 'pl' } };

/** The server refused the code (a 422 naming `payment.code`): said at the field. */
export const BlikCodeRefused: Story = { args: { scenario: 'blik-invalid' }, play: blik('777123') };
