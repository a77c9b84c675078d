import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { withActions } from 'storybook/actions/decorator';
import '../src/elements/client-form/define.js';
import type { ClientForm } from '../src/elements/client-form/client-form.js';
import { until } from './support/until.js';

interface Args {
  endpoint: string;
  mode: 'edit' | 'create';
  locale: string;
  theme: 'light' | 'dark' | 'auto';
  disabled: boolean;
}

/** Stories call a stand-in of the BFF (see stories/support): `/storybook-bff/<scenario>`. */
const scenario = (name: string) => `/storybook-bff/${name}`;

type Play = NonNullable<StoryObj<Args>['play']>;
const formIn = async (canvas: HTMLElement): Promise<ClientForm> => {
  const el = canvas.querySelector('client-form')!;
  // Waits for the stand-in's answer (about 350 ms) and the render after it.
  await until(() => el.querySelector('.cf-frame')?.getAttribute('aria-busy') === 'false');
  await el.updateComplete;
  return el;
};
/** Sets a field the way a customer's typing or the browser's autofill does. */
const fill = (el: ClientForm, field: string, value: string) => {
  const control = el.querySelector<HTMLInputElement>(`[data-field="${field}"]`)!;
  control.value = value;
  control.dispatchEvent(new Event('input', { bubbles: true }));
};
const submit = (el: ClientForm) => el.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
const play =
  (steps: (el: ClientForm) => void | Promise<void>): Play =>
  async ({ canvasElement }) => {
    const el = await formIn(canvasElement);
    await steps(el);
    await el.updateComplete;
  };

const meta: Meta<Args> = {
  title: 'Elements/client-form',
  component: 'client-form',
  decorators: [withActions],
  parameters: {
    actions: { handles: ['client-change', 'client-saved', 'client-error'] },
    docs: {
      description: {
        component:
          'The customer’s billing details, checked for invoicing (NIP, EU VAT, IBAN, post codes) and saved through the BFF. Its inputs live in the light DOM so autofill and password managers find them. In these stories a stand-in answers for the BFF; events are logged in the Actions panel.',
      },
    },
  },
  args: { endpoint: scenario('client-company'), mode: 'edit', locale: 'en', theme: 'light', disabled: false },
  argTypes: {
    mode: { control: 'inline-radio', options: ['edit', 'create'] },
    theme: { control: 'inline-radio', options: ['light', 'dark', 'auto'] },
    locale: { control: 'inline-radio', options: ['en', 'en-GB', 'pl'] },
  },
  render: (args) => html`
    <client-form
      endpoint=${args.endpoint}
      portal-token="storybook-portal-token"
      mode=${args.mode}
      locale=${args.locale}
      theme=${args.theme}
      ?disabled=${args.disabled}
    ></client-form>
  `,
};
export default meta;

type Story = StoryObj<Args>;

/** A company's details loaded for editing. */
export const LoadedCompany: Story = {};

/** A private person: a full name instead of a company name, the tax number optional, no contact person. */
export const PrivatePerson: Story = { args: { endpoint: scenario('client-person') } };

/** Sign-up: an empty form that creates the client (`mode="create"`). */
export const EmptyCreate: Story = { args: { endpoint: scenario('signup'), mode: 'create' } };

/** Changed and not yet saved: the discard button appears, and leaving the page asks first. */
export const Dirty: Story = { play: play((el) => fill(el, 'city', 'Kraków')) };

/** While saving, the save button is locked. */
export const Saving: Story = {
  args: { endpoint: scenario('client-saving') },
  play: play((el) => {
    fill(el, 'city', 'Kraków');
    submit(el);
  }),
};

export const Saved: Story = {
  play: play(async (el) => {
    fill(el, 'phone', '+48 12 345 67 89');
    submit(el);
    await until(() => !!el.querySelector('[part~="status"]')?.textContent?.trim() && el.querySelector('.cf-frame')?.getAttribute('aria-busy') === 'false');
  }),
};

/** Checked before sending, by the BFF's client check: a wrong NIP check digit, an IBAN that fails mod 97, a post code of the wrong shape. */
export const ClientSideErrors: Story = {
  play: play(async (el) => {
    fill(el, 'tax_no', '525-244-57-68');
    fill(el, 'bank_account', 'PL61 1090 1014 0000 0712 1981 2875');
    fill(el, 'post_code', '00838');
    submit(el);
    // Waits for the stand-in's verdict (about 350 ms) and the render after it.
    await until(() => !!el.querySelector('[aria-invalid="true"]'), 2_500);
  }),
};

/** The service refused the save: its field errors are shown at their fields, in the page’s language. */
export const ServerErrorsMapped: Story = {
  args: { endpoint: scenario('client-invalid') },
  play: play(async (el) => {
    fill(el, 'bank', 'A bank name longer than the service keeps');
    submit(el);
    await until(() => !!el.querySelector('[part~="field-error"]:not([hidden])'));
  }),
};

/** The service failed (502): retried quietly, then said in a banner with Try again. */
export const LoadError: Story = { args: { endpoint: scenario('error') }, play: play((el) => until(() => !!el.querySelector('[part~="error"]'))) };

export const ExpiredSession: Story = { args: { endpoint: scenario('expired') } };

export const Loading: Story = { args: { endpoint: scenario('loading') } };

export const Disabled: Story = { args: { disabled: true } };

export const Dark: Story = {
  args: { theme: 'dark' },
  globals: { backgrounds: { value: 'dark' } },
};

export const Polish: Story = { args: { locale: 'pl' } };

export const PolishErrors: Story = { ...ClientSideErrors, args: { locale: 'pl' } };

/** One column, nothing scrolls sideways at 320 px. */
export const Narrow: Story = {
  decorators: [(story) => html`<div style="width: 320px">${story()}</div>`],
};

/** Inside a page’s own form: no save button; its fields submit with the page’s form as `client[name]`, …. */
export const InsideAPageForm: Story = {
  render: (args) => html`
    <form @submit=${(e: Event) => e.preventDefault()} style="display: grid; gap: 1rem; max-width: 40rem">
      <client-form endpoint=${args.endpoint} portal-token="storybook-portal-token" locale=${args.locale}></client-form>
      <button>Place order</button>
    </form>
  `,
};

/** Waits until the register lookup has answered. */
const lookedUp = async (el: ClientForm): Promise<void> => {
  await el.updateComplete;
  el.querySelector<HTMLButtonElement>('[part~="lookup-button"]')!.click();
  await el.updateComplete;
  await until(() => !el.querySelector<HTMLButtonElement>('[part~="lookup-button"]')!.disabled);
  await el.updateComplete;
};

/** "Fill in from the register": one press fills name, address and country by NIP, keeping the street the customer typed. */
export const FilledFromRegister: Story = {
  args: { endpoint: scenario('signup'), mode: 'create' },
  play: play(async (el) => {
    fill(el, 'tax_no', '525-224-84-81');
    fill(el, 'street', 'ul. Długa 2');
    await lookedUp(el);
  }),
};

/** A number the register does not know: said at the tax number. */
export const UnknownCompany: Story = {
  args: { endpoint: scenario('signup'), mode: 'create' },
  play: play(async (el) => {
    fill(el, 'tax_no', '1234563218');
    await lookedUp(el);
  }),
};

/** The register cannot answer (503): said beside the button, and the form goes on as typed. */
export const RegisterDown: Story = {
  args: { endpoint: scenario('register-down'), mode: 'create', locale: 'pl' },
  play: play(async (el) => {
    fill(el, 'tax_no', '5252248481');
    await lookedUp(el);
  }),
};

/**
 * On a page whose own stylesheet makes every label a grid (as the demo's does): "(optional)" stays on
 * its label's line, at a phone's width, in Polish, with the full country list named in Polish.
 */
export const PhoneUnderPageLabelStyles: Story = {
  args: { endpoint: scenario('signup'), mode: 'create', locale: 'pl' },
  tags: ['phone'],
  decorators: [
    (story) => html`
      <style>
        .page-labels label { display: grid; gap: 0.3rem; }
      </style>
      <div class="page-labels" style="width: 358px">${story()}</div>
    `,
  ],
};
