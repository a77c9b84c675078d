import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, nothing } from 'lit';
import { withActions } from 'storybook/actions/decorator';
import '../src/elements/product-pay-button/define.js';
import type { ProductPayButton } from '../src/elements/product-pay-button/product-pay-button.js';
import { pause, until } from './support/until.js';

interface Args {
  endpoint: string;
  'app-url': string;
  account: string;
  product: string;
  quantity: number;
  'show-quantity': boolean;
  label: string;
  'return-url': string;
  'portal-token': string;
  locale: string;
  theme: 'light' | 'dark' | 'auto';
}

/** Stories call a stand-in of the BFF (see stories/support): `/storybook-bff/<scenario>`. */
const scenario = (name: string) => `/storybook-bff/${name}`;

type Play = NonNullable<StoryObj<Args>['play']>;
const part = <T extends Element = HTMLElement>(el: ProductPayButton, name: string) => el.shadowRoot!.querySelector<T>(`[part~="${name}"]`);

/** Waits for the stand-in's product answer (about 350 ms) and the render after it. */
async function loaded(canvas: HTMLElement): Promise<ProductPayButton> {
  const el = canvas.querySelector('product-pay-button')!;
  await until(() => !!(part(el, 'price') || part(el, 'error')), 5_000);
  await el.updateComplete;
  return el;
}

/** Opens the dialog the way a buyer does and fills what they would type. */
async function openDialog(el: ProductPayButton, buyer: { email?: string; name?: string; company?: string; tax_no?: string } = {}): Promise<void> {
  part<HTMLButtonElement>(el, 'button')!.click();
  await el.updateComplete;
  const form = part<HTMLFormElement>(el, 'form')!;
  const fill = (name: string, value: string | undefined) => {
    const input = form.querySelector<HTMLInputElement>(`input[name="${name}"]`);
    if (input && value !== undefined) input.value = value;
  };
  if (buyer.company !== undefined) {
    const box = form.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    box.checked = true;
    box.dispatchEvent(new Event('change'));
    await el.updateComplete;
  }
  fill('email', buyer.email);
  fill('name', buyer.name);
  fill('company', buyer.company);
  fill('tax_no', buyer.tax_no);
}

const ADA = { email: 'ada@example.com', name: 'Ada Lovelace' };

const play =
  (steps: (el: ProductPayButton) => Promise<void>): Play =>
  async ({ canvasElement }) => {
    const el = await loaded(canvasElement);
    await steps(el);
    await el.updateComplete;
  };

/** Fills the dialog and presses Continue; the page's `pay-start` handler (below) stands in for the payment page. */
/** The outcome as the server records it, once it has one ("Checking the payment…" keeps the button disabled). */
const outcomeShown = (el: ProductPayButton) => !part<HTMLButtonElement>(el, 'button')!.disabled && !!part(el, 'status')?.textContent?.trim();
/** Why the checkout could not start, under the dialog's fields. */
const problemShown = (el: ProductPayButton) => !!el.shadowRoot!.querySelector('dialog .error')?.textContent?.trim();

/**
 * Fills the dialog, presses Continue once the server's quote is in (it is disabled until then), and
 * waits for `shown`, the state the story is about: a story ends on that state, not on the click.
 */
const checkout = (shown: (el: ProductPayButton) => boolean = outcomeShown) =>
  play(async (el) => {
    await openDialog(el, ADA);
    const next = part<HTMLButtonElement>(el, 'continue-button')!;
    await until(() => !next.disabled);
    next.click();
    await until(() => shown(el));
  });

/**
 * Instead of leaving for the payment page, the stories' page takes over navigation (`pay-start` is
 * cancelable) and asks the button for the outcome at once, as a page paying in a popup would.
 */
const payInPlace = (event: Event) => {
  event.preventDefault();
  void (event.target as ProductPayButton).checkOutcome();
};

const button = (args: Args) => html`
  <product-pay-button
    endpoint=${args.endpoint}
    app-url=${args['app-url'] || nothing}
    account=${args.account || nothing}
    product=${args.product}
    quantity=${args.quantity}
    ?show-quantity=${args['show-quantity']}
    label=${args.label || nothing}
    return-url=${args['return-url'] || nothing}
    portal-token=${args['portal-token'] || nothing}
    locale=${args.locale}
    theme=${args.theme}
    @pay-start=${payInPlace}
  ><a href="https://shop.invoicekit.example/order/${args.product}">Buy</a></product-pay-button>
`;

const meta: Meta<Args> = {
  title: 'Elements/product-pay-button',
  component: 'product-pay-button',
  decorators: [withActions],
  parameters: {
    actions: { handles: ['pay-before', 'pay-start', 'pay-success', 'pay-cancel', 'pay-error'] },
    docs: {
      description: {
        component:
          'A buy button for one product: name and price, a checkout dialog that shows unit price, VAT and total, the payment page, and on return the outcome as the server records it, with the issued invoice. Give it the BFF’s `endpoint` and a `product` token, or `app-url` and `account` to talk to the service directly. In these stories a stand-in answers for the BFF, the payment page is skipped (`pay-start` is cancelled and the outcome asked for at once), and events are logged in the Actions panel.',
      },
    },
  },
  args: {
    endpoint: scenario('shop'),
    'app-url': '',
    account: '',
    product: 'logo-design',
    quantity: 1,
    'show-quantity': false,
    label: '',
    'return-url': '',
    'portal-token': '',
    locale: 'en',
    theme: 'light',
  },
  argTypes: {
    product: { control: 'select', options: ['logo-design', 'coffee-beans', 'brand-workshop-eur', 'logo-licence-jpy', 'long-name', 'no-such-product'] },
    quantity: { control: { type: 'number', min: 1, max: 1000, step: 1 } },
    theme: { control: 'inline-radio', options: ['light', 'dark', 'auto'] },
    locale: { control: 'inline-radio', options: ['en', 'en-GB', 'pl'] },
  },
  render: button,
};
export default meta;

type Story = StoryObj<Args>;

/** The product's name and price, as the BFF answers them. */
export const Loaded: Story = {};

export const Loading: Story = { args: { endpoint: scenario('loading') } };

/** While a test provider takes the payments, a badge says so, as Stripe's test keys do. */
export const TestMode: Story = { args: { endpoint: scenario('test-mode') } };

/** Direct mode (`app-url` + `account`) on a service that takes no online payments: the button is disabled and says why. */
export const Unavailable: Story = { args: { endpoint: '', 'app-url': '/storybook-service/unavailable', account: 'demo' } };

/** The product could not be loaded (the service is down): an error with a retry button, after a few quiet retries. */
export const LoadError: Story = { args: { endpoint: scenario('error') } };

/** A token the shop does not sell. */
/** A token the shop no longer sells (the BFF answers 404): said as such, with no retry that could not help. */
export const UnknownProduct: Story = { args: { product: 'no-such-product' } };

export const UnknownProductPolish: Story = { args: { product: 'no-such-product', locale: 'pl' } };

/** The checkout dialog for a private person: e-mail and name, then unit price, VAT and total. */
export const DialogOpen: Story = { play: play((el) => openDialog(el)) };

/** A company invoice: company name and tax number beside the buyer's own name. */
export const DialogAsCompany: Story = { play: play((el) => openDialog(el, { ...ADA, company: 'Analytical Engines Ltd', tax_no: '5252445767' })) };

/** A signed-in customer (`portal-token`): the dialog asks nothing, and the invoice goes to their own details and portal. */
export const SignedInCustomer: Story = {
  args: { 'portal-token': 'storybook-portal-token' },
  play: play((el) => openDialog(el)),
};

/** `show-quantity`: the buyer sets how many; the total follows. */
export const WithQuantity: Story = {
  args: { product: 'coffee-beans', 'show-quantity': true, quantity: 3 },
  play: play((el) => openDialog(el)),
};

/** The checkout request is on its way: everything is locked, so a double click makes one payment. */
export const Redirecting: Story = { args: { endpoint: scenario('redirecting') }, play: checkout((el) => part(el, 'form')?.getAttribute('aria-busy') === 'true') };

/** The BFF refused a field (422): the dialog names it and offers to try again. */
export const CheckoutInvalid: Story = { args: { endpoint: scenario('checkout-invalid') }, play: checkout(problemShown) };

/** Too many checkouts from this address (429): retried quietly with `Retry-After`, then explained. */
export const CheckoutRateLimited: Story = { args: { endpoint: scenario('checkout-busy') }, play: checkout(problemShown) };

/** No connection: retried quietly, then explained; Continue becomes Try again with the same idempotency key. */
export const CheckoutOffline: Story = { args: { endpoint: scenario('offline') }, play: checkout(problemShown) };

/** Back from the payment page, the button asks the server how it ended. */
export const CheckingOutcome: Story = { args: { endpoint: scenario('outcome-checking') }, play: checkout((el) => !!part(el, 'status')?.textContent?.trim()) };

/** Paid: the server names the issued invoice, with a link to it. */
export const Paid: Story = { play: checkout() };

export const Declined: Story = { args: { endpoint: scenario('declined') }, play: checkout() };

export const Cancelled: Story = { args: { endpoint: scenario('cancelled') }, play: checkout() };

/** The buyer came back and the provider has not reported yet: asked a few times, then called unfinished. */
export const NotFinished: Story = { args: { endpoint: scenario('pending') }, play: checkout() };

/** Yen have no minor unit: ¥15,000, never ¥15,000.00 or 100 times too much. */
export const Yen: Story = { args: { product: 'logo-licence-jpy' }, play: play((el) => openDialog(el)) };

export const Euro: Story = { args: { product: 'brand-workshop-eur', locale: 'en-GB' } };

/** A long name wraps; the price and button stay whole, and nothing scrolls sideways at 320 px. */
export const LongProductName: Story = {
  args: { product: 'long-name' },
  decorators: [(story) => html`<div style="width: 320px">${story()}</div>`],
};

export const CustomLabel: Story = { args: { label: 'Order the logo' } };

/** Size, radius and colours through custom properties; the button's inside through `::part`. */
export const Themed: Story = {
  decorators: [
    (story) => html`
      <style>
        .themed product-pay-button {
          --product-pay-button-height: 3.25rem;
          --product-pay-button-padding: 2rem;
          --product-pay-button-radius: 999px;
          --product-pay-button-background: #0f766e;
          --product-pay-button-color: #ffffff;
          --product-pay-button-font-size: 1.05rem;
          --ik-font-family: Georgia, serif;
        }
        .themed product-pay-button::part(name) { font-weight: 700; letter-spacing: 0.01em; }
        .themed product-pay-button::part(price) { color: light-dark(#0f766e, #5eead4); font-size: 1.25rem; }
        .themed product-pay-button::part(button) { text-transform: uppercase; box-shadow: 0 4px 14px rgb(15 118 110 / 35%); }
      </style>
      <div class="themed">${story()}</div>
    `,
  ],
};

/** `theme="dark"` in a dark section of a light page. */
export const DarkSection: Story = {
  args: { theme: 'dark' },
  decorators: [(story) => html`<section style="background: #090d16; padding: 2rem; border-radius: 12px">${story()}</section>`],
};

/** The dialog in the dark theme, over a dark section: the price summary's sunken box stays dark, its text light. */
export const DarkSectionDialog: Story = {
  ...DarkSection,
  args: { theme: 'dark', product: 'coffee-beans', 'show-quantity': true },
  globals: { backgrounds: { value: 'dark' } },
  play: play((el) => openDialog(el)),
};

export const DarkSectionDialogPolish: Story = { ...DarkSectionDialog, args: { ...DarkSectionDialog.args, locale: 'pl' } };

/** `theme="dark"` on a light page: the button brings its own dark surface, so its light text stays readable. */
export const DarkOnLightPage: Story = { args: { theme: 'dark' } };

export const Polish: Story = { args: { locale: 'pl' } };

export const PolishDialog: Story = { args: { locale: 'pl', 'show-quantity': true }, play: play((el) => openDialog(el)) };

/** Six buttons on one page, each with its own accessible name ("Buy now: Logo design, PLN 1,845.00"). */
export const SeveralOnOnePage: Story = {
  render: (args) => html`
    <div style="display: grid; gap: 1rem; max-width: 40rem">
      ${['logo-design', 'coffee-beans', 'brand-workshop-eur', 'logo-licence-jpy', 'long-name'].map((product) => button({ ...args, product }))}
      ${button({ ...args, product: 'coffee-beans', theme: 'dark', label: 'Order beans' })}
    </div>
  `,
};

/** Types into a dialog field as a buyer does: the value, then `input` and `change`, so the price is asked again. */
function type(el: ProductPayButton, name: string, value: string): void {
  const input = part(el, 'form')!.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`)!;
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Waits until the dialog shows a price the server quoted for the buyer as typed. */
async function quoted(el: ProductPayButton): Promise<void> {
  await until(() => part(el, 'summary')?.getAttribute('aria-busy') === 'false', 3_000);
  await el.updateComplete;
}

/** A German company with a VAT number, typed in full. */
const GERMAN_COMPANY = async (el: ProductPayButton) => {
  await openDialog(el, { ...ADA, company: 'Acme GmbH' });
  for (const [name, value] of [['country', 'DE'], ['tax_no', 'DE811907980'], ['street', 'Hauptstraße 1'], ['post_code', '10115'], ['city', 'Berlin']] as const) type(el, name, value);
  await pause(300);
  await quoted(el);
};

/** A German company's VAT number: the server's quote is the net price, and the dialog says why (reverse charge). */
export const ReverseCharge: Story = { args: { product: 'brand-workshop-eur' }, play: play(GERMAN_COMPANY) };

/** A quantity outside 1 to 1000 (here 2.5): an error at the field, no price, and Continue stays off. */
export const BadQuantity: Story = {
  args: { product: 'coffee-beans', 'show-quantity': true },
  play: play(async (el) => {
    await openDialog(el, ADA);
    type(el, 'quantity', '2.5');
  }),
};

export const BadQuantityPolish: Story = { ...BadQuantity, args: { ...BadQuantity.args, locale: 'pl' } };

/** VIES does not know the number (a 422 naming `buyer.tax_no`): said at the tax number field, which takes the focus. */
export const ViesRefused: Story = {
  args: { endpoint: scenario('checkout-vies-invalid'), product: 'brand-workshop-eur' },
  play: play(async (el) => {
    await GERMAN_COMPANY(el);
    part<HTMLButtonElement>(el, 'continue-button')!.click();
    await until(() => problemShown(el));
  }),
};

/** VIES could not answer at the checkout: Polish VAT after all. The dialog shows the new total and why before the buyer goes on. */
export const ViesDownNewTotal: Story = {
  args: { endpoint: scenario('vies-down'), product: 'brand-workshop-eur' },
  play: play(async (el) => {
    await GERMAN_COMPANY(el);
    part<HTMLButtonElement>(el, 'continue-button')!.click();
    await until(() => !!part(el, 'revised'));
  }),
};

/** Opens the company form, types `taxNo`, presses "Fill in from the register" and waits for the register's answer. */
const lookUp = (taxNo: string) =>
  play(async (el) => {
    await openDialog(el, { ...ADA, company: '' });
    type(el, 'tax_no', taxNo);
    part<HTMLButtonElement>(el, 'lookup-button')!.click();
    await el.updateComplete;
    await until(() => !part<HTMLButtonElement>(el, 'lookup-button')!.disabled);
  });

/** "Fill in from the register": one press fills the company's name and address by NIP. */
export const CompanyFromRegister: Story = { play: lookUp('5252248481') };

/** The register does not know the number: said at the tax number field. */
export const CompanyUnknown: Story = { args: { locale: 'pl' }, play: lookUp('1234563218') };

/** The register cannot answer (503): said beside the button; the buyer types the details. */
export const RegisterDown: Story = { args: { endpoint: scenario('register-down') }, play: lookUp('5252248481') };

/** The reverse-charge dialog in Polish: "bez VAT" beside the total, and the note says why. */
export const ReverseChargePolish: Story = { args: { product: 'brand-workshop-eur', locale: 'pl' }, play: play(GERMAN_COMPANY) };

/** The reverse-charge dialog in the dark theme. */
export const ReverseChargeDark: Story = {
  args: { product: 'brand-workshop-eur', theme: 'dark' },
  globals: { backgrounds: { value: 'dark' } },
  play: play(GERMAN_COMPANY),
};

/**
 * The company form on a 390 px phone (the `phone` tag: the accessibility run opens it at 390×844): one
 * column with post code beside city, and Continue in sight at the bottom while the fields scroll.
 */
export const CompanyFormPhone: Story = {
  tags: ['phone'],
  play: play((el) => openDialog(el, { ...ADA, company: 'Analytical Engines Ltd', tax_no: '5252445767' })),
};

export const CompanyFormPhonePolish: Story = { ...CompanyFormPhone, args: { locale: 'pl' } };

/** A yen product's buyer picks Japan from every country, named in their language. */
export const YenBuyerInJapan: Story = {
  args: { product: 'logo-licence-jpy' },
  play: play(async (el) => {
    await openDialog(el, ADA);
    type(el, 'country', 'JP');
    await pause(300);
    await quoted(el);
  }),
};
