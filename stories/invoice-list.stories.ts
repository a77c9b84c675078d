import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, nothing } from 'lit';
import { withActions } from 'storybook/actions/decorator';
import '../src/elements/invoice-list/define.js';
import { until } from './support/until.js';

interface Args {
  endpoint: string;
  locale: string;
  theme: 'light' | 'dark' | 'auto';
  status: string;
  period: string;
  order: string;
  'per-page': number;
  paging: 'pages' | 'scroll';
  'return-url': string;
}

/** Stories call a stand-in of the BFF (see stories/support): `/storybook-bff/<scenario>`. */
const scenario = (name: string) => `/storybook-bff/${name}`;

const meta: Meta<Args> = {
  title: 'Elements/invoice-list',
  component: 'invoice-list',
  decorators: [withActions],
  parameters: {
    actions: { handles: ['invoice-select', 'invoice-download', 'invoice-pay', 'invoice-query-change'] },
    docs: {
      description: {
        component:
          'The session customer’s invoices, served by the BFF. Give it the BFF’s `endpoint` and the short-lived `portal-token` your backend minted for the signed-in customer. In these stories a stand-in answers for the BFF, and the events are cancelled and logged in the Actions panel instead of opening pages.',
      },
    },
  },
  args: {
    endpoint: scenario('mixed'),
    locale: 'en',
    theme: 'light',
    status: '',
    period: 'all',
    order: 'issue_date.desc',
    'per-page': 10,
    paging: 'pages',
    'return-url': '',
  },
  argTypes: {
    theme: { control: 'inline-radio', options: ['light', 'dark', 'auto'] },
    locale: { control: 'inline-radio', options: ['en', 'en-GB', 'pl'] },
    status: { control: 'select', options: ['', 'outstanding', 'overdue', 'paid', 'partial', 'unpaid'] },
    paging: { control: 'inline-radio', options: ['pages', 'scroll'] },
  },
  render: (args) => html`
    <invoice-list
      endpoint=${args.endpoint}
      portal-token="storybook-portal-token"
      locale=${args.locale}
      theme=${args.theme}
      status=${args.status}
      period=${args.period}
      order=${args.order}
      per-page=${args['per-page']}
      paging=${args.paging}
      return-url=${args['return-url'] || nothing}
      @invoice-select=${(e: Event) => e.preventDefault()}
      @invoice-download=${(e: Event) => e.preventDefault()}
      @invoice-pay=${(e: Event) => e.preventDefault()}
    ></invoice-list>
  `,
};
export default meta;

type Story = StoryObj<Args>;

/** Paid, partially paid, unpaid and overdue invoices side by side. */
export const MixedStatuses: Story = {};

export const Polish: Story = { args: { locale: 'pl' } };

export const Dark: Story = {
  args: { theme: 'dark' },
  globals: { backgrounds: { value: 'dark' } },
};

/** Below 40rem of its own width the table becomes cards; nothing scrolls sideways at 320 px. */
export const Narrow: Story = {
  decorators: [(story) => html`<div style="width: 320px">${story()}</div>`],
};

export const NarrowPolishDark: Story = {
  args: { locale: 'pl', theme: 'dark' },
  globals: { backgrounds: { value: 'dark' } },
  decorators: [(story) => html`<div style="width: 320px">${story()}</div>`],
};

export const Loading: Story = { args: { endpoint: scenario('loading') } };

/** Loading on a phone: each placeholder is a card, as the rows will be. */
export const LoadingPhone: Story = {
  args: { endpoint: scenario('loading') },
  tags: ['phone'],
  decorators: [(story) => html`<div style="width: 358px">${story()}</div>`],
};

/**
 * Waits (up to 10 s) until the list shows `part`: the story ends on the state it is named for, after
 * the stand-in's answer and the retries a busy answer gets.
 */
const shows =
  (part: string): NonNullable<Story['play']> =>
  async ({ canvasElement }) => {
    const el = canvasElement.querySelector('invoice-list')!;
    await until(() => !!el.shadowRoot?.querySelector(`[part~="${part}"]`));
    await el.updateComplete;
  };

export const Empty: Story = { args: { endpoint: scenario('empty') }, play: shows('empty') };

export const FilteredToNothing: Story = { args: { status: 'overdue', period: 'this_month', endpoint: scenario('euro') }, play: shows('empty') };

/** The service failed (502): retried quietly, then said, with Try again. */
export const ServiceError: Story = { args: { endpoint: scenario('error') }, play: shows('error') };

export const ExpiredSession: Story = { args: { endpoint: scenario('expired'), locale: 'pl' }, play: shows('error') };

export const OverdueFirst: Story = { args: { status: 'overdue', order: 'payment_to.asc' } };

/** Everything with money still due: unpaid, partly paid and overdue alike, with what the customer owes above. */
export const Outstanding: Story = { args: { status: 'outstanding' } };

/** At a desktop width every column shows, with labelled actions. */
export const Wide: Story = {
  decorators: [(story) => html`<div style="width: 1100px">${story()}</div>`],
};

export const Euro: Story = { args: { endpoint: scenario('euro'), locale: 'en-GB' } };

/** 10,000 invoices: rows load a hundred at a time and only the visible ones are in the DOM. */
export const TenThousandRows: Story = {
  args: { endpoint: scenario('many'), paging: 'scroll' },
};

/** Each invoice's state in KSeF, Poland's e-invoicing system: sent with its KSeF number, pending, an error, issued offline, or none. */
export const KsefStates: Story = { args: { 'per-page': 10 } };

/** The KSeF states in Polish. */
export const KsefStatesPolish: Story = { args: { 'per-page': 10, locale: 'pl' } };

/** Opens the first row's KSeF detail once the stand-in has answered, as a click on “KSeF details” does. */
const openKsefDetail: NonNullable<Story['play']> = async ({ canvasElement }) => {
  const el = canvasElement.querySelector('invoice-list')!;
  await until(() => !!el.shadowRoot?.querySelector('[part~="row"]'), 3_000);
  el.shadowRoot?.querySelector<HTMLButtonElement>('[part~="ksef-toggle"]')?.click();
  // The detail's module loads on the first opening; the list's update completes once it is shown.
  await el.updateComplete;
};
const ksefStory = (state: string, locale = 'en'): Story => ({ args: { endpoint: scenario(`ksef-${state}`), locale }, play: openKsefDetail });

/** KSeF accepted the invoice: its number, the day it was sent and the link that verifies it in KSeF. */
export const KsefDetailSent = ksefStory('sent');
/** Sent, and KSeF has not assigned its number yet. */
export const KsefDetailPending = ksefStory('pending');
/** KSeF did not accept it (or was unavailable): the customer reads what happens next, never the seller's error messages. */
export const KsefDetailError = ksefStory('error');
/** Issued offline: valid at once, with its verification link, and numbered by KSeF afterwards. */
export const KsefDetailOffline = ksefStory('offline');
/** Kinds that do not go to KSeF have neither a state nor a detail. */
export const KsefNotApplicable: Story = { args: { endpoint: scenario('ksef-none') } };
/** The detail in Polish. */
export const KsefDetailSentPolish = ksefStory('sent', 'pl');
export const KsefDetailErrorPolish = ksefStory('error', 'pl');
export const KsefDetailOfflinePolish = ksefStory('offline', 'pl');

/** On a 390 px phone the rows are cards, and the opened KSeF detail takes the card's width, wrapping by words. */
export const KsefDetailPhone: Story = {
  ...ksefStory('sent'),
  tags: ['phone'],
  decorators: [(story) => html`<div style="width: 358px">${story()}</div>`],
};

/** The same in Polish and the dark theme, in the virtually scrolled list. */
export const KsefDetailPhonePolishDark: Story = {
  ...ksefStory('sent', 'pl'),
  args: { endpoint: scenario('ksef-sent'), locale: 'pl', theme: 'dark', paging: 'scroll' },
  tags: ['phone'],
  globals: { backgrounds: { value: 'dark' } },
  decorators: [(story) => html`<div style="width: 358px">${story()}</div>`],
};
