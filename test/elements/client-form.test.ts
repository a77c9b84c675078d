import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import '../../src/elements/client-form/define.js';
import type { ClientForm } from '../../src/elements/client-form/client-form.js';
import type { ClientChangeEvent, ClientErrorEvent, ClientSavedEvent } from '../../src/elements/client-form/events.js';
import type { Client } from '../../src/api/schemas/client.js';
import { portal } from './support/portal.js';

const { bff } = await portal();

/** A fresh customer of the account, with a portal token that may read and change their record. */
async function newCustomer(fields: Record<string, string> = {}): Promise<{ id: number; token: string }> {
  return (await fetch(`/__portal/new-customer?${new URLSearchParams(fields)}`)).json();
}

/** The client as the service's own API answers it, not through the BFF. */
const serviceClient = async (id: number): Promise<Client> => (await fetch(`/__portal/client/${id}`)).json();

const busy = (el: ClientForm) => el.querySelector('.cf-frame')!.getAttribute('aria-busy') === 'true';

async function settled(el: ClientForm): Promise<void> {
  while (!(await el.updateComplete));
  await waitUntil(() => el.querySelector('.cf-frame') && !busy(el), 'the form kept loading', { timeout: 15_000 });
  while (!(await el.updateComplete));
}

async function editForm(token: string, locale = 'en'): Promise<ClientForm> {
  const el = await fixture<ClientForm>(html`<client-form endpoint=${bff} portal-token=${token} locale=${locale}></client-form>`);
  // Still loading: the fields are there, disabled, and the status says what is happening.
  if (busy(el)) {
    expect(input(el, 'name').disabled).to.equal(true);
    await expect(el).to.be.accessible();
  }
  await settled(el);
  return el;
}

const input = (el: ClientForm, field: string) => el.querySelector<HTMLInputElement>(`[data-field="${field}"]`)!;
const errorOf = (el: ClientForm, field: string) => {
  const control = input(el, field);
  const id = control.getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent?.trim() : undefined;
};
/** Waits for a field's problem to show: the BFF's verdict on the fields comes with its answer. */
const shown = (el: ClientForm, field: string) => waitUntil(() => errorOf(el, field) !== undefined, `no problem shown at ${field}`, { timeout: 10_000 });
const submitButton = (el: ClientForm) => el.querySelector<HTMLButtonElement>('button[type="submit"]')!;
const kind = (el: ClientForm, company: boolean) => el.querySelector<HTMLInputElement>(`[data-field="company"][value="${company ? 1 : 0}"]`)!;

/** Sets a value the way browser autofill does: the value, then `input` and `change` events. */
function autofill(control: HTMLInputElement | HTMLSelectElement, value: string): void {
  control.value = value;
  control.dispatchEvent(new Event('input', { bubbles: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}

describe('<client-form> against the real BFF and service', () => {
  afterEach(async () => {
    await setViewport({ width: 1280, height: 900 });
  });

  it('loads the customer’s details into light-DOM inputs that autofill and password managers can reach', async () => {
    const { token } = await newCustomer();
    const el = await editForm(token);
    expect(input(el, 'name').value).to.equal('Nowak Design Sp. z o.o.');
    expect(input(el, 'tax_no').value).to.equal('5252445767');
    expect(input(el, 'country').value).to.equal('PL');
    expect(kind(el, true).checked).to.equal(true);

    const expected: Record<string, string> = {
      name: 'billing organization',
      person: 'billing name',
      email: 'billing email',
      phone: 'billing tel',
      street: 'billing street-address',
      post_code: 'billing postal-code',
      city: 'billing address-level2',
      country: 'billing country',
      tax_no: 'off',
      bank: 'off',
      bank_account: 'off',
    };
    // Where autofill and password managers look: the document's own inputs, not a shadow root.
    expect(el.shadowRoot).to.equal(null);
    const inDocument = [...document.querySelectorAll<HTMLInputElement | HTMLSelectElement>('client-form input:not([type=radio]), client-form select')];
    expect(inDocument.map((c) => c.dataset.field).sort()).to.deep.equal(Object.keys(expected).sort());
    for (const control of inDocument) {
      const field = control.dataset.field!;
      expect(control.getAttribute('autocomplete'), field).to.equal(expected[field]);
      expect(control.name, field).to.equal(`client[${field}]`);
      expect(control.form, field).to.equal(el.querySelector('form'));
      expect(control.labels?.[0]?.textContent, field).to.not.equal('');
    }
    expect(input(el, 'email').type).to.equal('email');
    expect(input(el, 'phone').type).to.equal('tel');
    await expect(el).to.be.accessible();
  });

  it('takes up values set the way autofill sets them, and saves an edit that the service then shows', async () => {
    const { id, token } = await newCustomer();
    const el = await editForm(token);
    const changes: ClientChangeEvent[] = [];
    el.addEventListener('client-change', (e) => changes.push(e));
    autofill(input(el, 'street'), 'ul. Długa 5');
    autofill(input(el, 'post_code'), '31-147');
    autofill(input(el, 'city'), 'Kraków');
    autofill(input(el, 'phone'), '+48 12 345 67 89');
    autofill(input(el, 'bank_account'), '61 1090 1014 0000 0712 1981 2874');
    await el.updateComplete;
    expect(el.dirty).to.equal(true);
    expect(changes.map((e) => e.detail.field)).to.include.members(['street', 'post_code', 'city', 'phone', 'bank_account']);
    expect(changes.at(-1)!.detail.dirty).to.equal(true);
    expect(el.value).to.include({ street: 'ul. Długa 5', city: 'Kraków', company: true });
    expect(el.querySelector('[role="status"]')!.textContent).to.contain('unsaved');
    await expect(el).to.be.accessible();

    const saved = oneEvent(el, 'client-saved') as Promise<ClientSavedEvent>;
    submitButton(el).click();
    await el.updateComplete;
    // Locked while the save is on its way: a second click sends nothing.
    expect(submitButton(el).getAttribute('aria-disabled')).to.equal('true');
    expect(await el.save()).to.equal(false);
    await expect(el).to.be.accessible();
    const { detail } = await saved;
    expect(detail.client).to.include({ id, city: 'Kraków', street: 'ul. Długa 5', bank_account: '61 1090 1014 0000 0712 1981 2874' });
    await el.updateComplete;
    expect(el.dirty).to.equal(false);
    expect(el.querySelector('[role="status"]')!.textContent!.trim()).to.equal('Your details have been saved.');

    const stored = await serviceClient(id);
    expect(stored).to.include({ city: 'Kraków', street: 'ul. Długa 5', post_code: '31-147', phone: '+48 12 345 67 89', name: 'Nowak Design Sp. z o.o.' });
    await expect(el).to.be.accessible();
  });

  it('checks the NIP, EU VAT numbers and IBANs before sending, at the field, and moves focus to the first error', async () => {
    const { id, token } = await newCustomer();
    const el = await editForm(token);
    const before = await serviceClient(id);
    const cases: [field: string, bad: string, good: string, message: string][] = [
      ['tax_no', '525-244-57-68', '774-000-14-54', 'This NIP is not valid. Check its 10 digits.'],
      ['tax_no', 'DE13669597', 'DE136695976', 'This is not a valid EU VAT number. Check the country code and the digits, as in DE136695976.'],
      ['tax_no', 'ATU1358562', 'ATU13585627', 'This is not a valid EU VAT number. Check the country code and the digits, as in DE136695976.'],
      ['bank_account', 'PL61109010140000071219812875', 'PL61109010140000071219812874', 'This is not a valid IBAN. Check the account number.'],
      ['bank_account', 'DE89370400440532013001', 'DE89 3704 0044 0532 0130 00', 'This is not a valid IBAN. Check the account number.'],
      ['post_code', '00950', '00-950', 'Enter the post code as 00-950.'],
      ['email', 'nowak@', 'billing@nowak.example.com', 'Enter an e-mail address such as name@example.com.'],
    ];
    for (const [field, bad, good, message] of cases) {
      autofill(input(el, field), bad);
      submitButton(el).click();
      await shown(el, field);
      await el.updateComplete;
      expect(input(el, field).getAttribute('aria-invalid'), bad).to.equal('true');
      expect(errorOf(el, field), bad).to.equal(message);
      expect(document.activeElement, bad).to.equal(input(el, field));
      expect(el.checkValidity()).to.equal(false);
      await expect(el).to.be.accessible();
      autofill(input(el, field), good);
      await el.updateComplete;
      expect(input(el, field).getAttribute('aria-invalid'), good).to.equal('false');
      expect(input(el, field).hasAttribute('aria-describedby'), good).to.equal(false);
    }
    // Nothing bad ever reached the service.
    expect((await serviceClient(id)).updated_at).to.equal(before.updated_at);
    expect(el.checkValidity()).to.equal(true);
  });

  it('shows a 422 from the service at its field, in the page’s words', async () => {
    const { id, token } = await newCustomer();
    const el = await editForm(token);
    // Longer than the service keeps (200): typing stops at maxlength, a script or a paste tool may not.
    autofill(input(el, 'bank'), 'Bank '.repeat(41));
    const failed = oneEvent(el, 'client-error') as Promise<ClientErrorEvent>;
    submitButton(el).click();
    const { detail } = await failed;
    expect(detail).to.deep.include({ action: 'save', status: 422 });
    expect(detail.fields).to.deep.equal({ bank: ['is too long (maximum is 200 characters)'] });
    await el.updateComplete;
    expect(input(el, 'bank').getAttribute('aria-invalid')).to.equal('true');
    expect(errorOf(el, 'bank')).to.equal('Use at most 200 characters.');
    expect(document.activeElement).to.equal(input(el, 'bank'));
    await expect(el).to.be.accessible();
    expect((await serviceClient(id)).bank).to.equal(null);
    // Editing the field clears the server's message.
    autofill(input(el, 'bank'), 'mBank');
    await el.updateComplete;
    expect(input(el, 'bank').getAttribute('aria-invalid')).to.equal('false');
  });

  it('signs a new private customer up, completed with the keyboard alone', async () => {
    const email = `anna.${Date.now()}@example.com`;
    const el = await fixture<ClientForm>(html`<div><button id="before">Before</button><client-form endpoint=${bff} mode="create" locale="en"></client-form></div>`).then(
      (wrapper) => wrapper.querySelector('client-form')!,
    );
    await settled(el);
    expect(submitButton(el).textContent!.trim()).to.equal('Create account');
    await expect(el).to.be.accessible();
    document.querySelector<HTMLButtonElement>('#before')!.focus();
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(kind(el, true));
    // Arrow keys move through the radio group: a private person.
    await sendKeys({ press: 'ArrowDown' });
    await el.updateComplete;
    expect(kind(el, false).checked).to.equal(true);
    expect(el.querySelector('[data-field="person"]')).to.equal(null);
    expect(el.querySelector(`label[for="${input(el, 'name').id}"]`)!.textContent).to.contain('Full name');
    await expect(el).to.be.accessible();
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(input(el, 'name'));
    await sendKeys({ type: 'Anna Kowalska' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(input(el, 'email'));
    await sendKeys({ type: email });
    // Enter submits from any field.
    const saved = oneEvent(el, 'client-saved') as Promise<ClientSavedEvent>;
    await sendKeys({ press: 'Enter' });
    const { detail } = await saved;
    expect(detail.client).to.include({ name: 'Anna Kowalska', email, company: false, country: null });
    const found = (await (await fetch(`/__portal/clients?email=${encodeURIComponent(email)}`)).json()) as Client[];
    expect(found.map((c) => [c.id, c.name, c.company])).to.deep.equal([[detail.client.id, 'Anna Kowalska', false]]);
  });

  it('in a page’s form: its fields go into FormData, its validity blocks the submit, reset restores it', async () => {
    const { token } = await newCustomer();
    const form = await fixture<HTMLFormElement>(html`<form>
      <input name="order" value="42" aria-label="Order number" />
      <client-form name="billing" endpoint=${bff} portal-token=${token} locale="en"></client-form>
      <button>Order</button>
    </form>`);
    const el = form.querySelector('client-form')!;
    await settled(el);
    expect(el.form).to.equal(form);
    // A control, not a second form: no save button of its own.
    expect(el.querySelector('form, button[type="submit"]')).to.equal(null);
    let data = new FormData(form);
    expect(data.get('order')).to.equal('42');
    expect(data.get('billing[name]')).to.equal('Nowak Design Sp. z o.o.');
    expect(data.get('billing[tax_no]')).to.equal('5252445767');
    expect(data.get('billing[country]')).to.equal('PL');
    expect(data.get('billing[company]')).to.equal('1');
    expect(form.checkValidity()).to.equal(true);

    autofill(input(el, 'tax_no'), '1234567890');
    await el.updateComplete;
    // Valid until the BFF's verdict on the new number is in; then not.
    await waitUntil(() => !form.checkValidity(), 'the BFF’s verdict never came', { timeout: 10_000 });
    expect(el.validity.valid).to.equal(false);
    expect(el.validationMessage).to.equal('This NIP is not valid. Check its 10 digits.');
    let submitted = false;
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      submitted = true;
    });
    form.requestSubmit();
    await el.updateComplete;
    expect(submitted).to.equal(false);
    expect(errorOf(el, 'tax_no')).to.equal('This NIP is not valid. Check its 10 digits.');
    await expect(form).to.be.accessible();

    autofill(input(el, 'city'), 'Gdańsk');
    await el.updateComplete;
    data = new FormData(form);
    expect(data.get('billing[city]')).to.equal('Gdańsk');
    form.reset();
    await el.updateComplete;
    expect(input(el, 'city').value).to.equal('Warszawa');
    expect(input(el, 'tax_no').value).to.equal('5252445767');
    expect(el.dirty).to.equal(false);
    expect(errorOf(el, 'tax_no')).to.equal(undefined);
    expect(form.checkValidity()).to.equal(true);
    data = new FormData(form);
    expect(data.get('billing[city]')).to.equal('Warszawa');
    form.requestSubmit();
    expect(submitted).to.equal(true);
  });

  it('is disabled with a disabled fieldset around it, and with its own disabled attribute', async () => {
    const { token } = await newCustomer();
    const form = await fixture<HTMLFormElement>(html`<form><fieldset disabled><client-form endpoint=${bff} portal-token=${token} locale="en"></client-form></fieldset></form>`);
    const el = form.querySelector('client-form')!;
    await settled(el);
    expect(input(el, 'name').disabled).to.equal(true);
    expect(input(el, 'country').disabled).to.equal(true);
    form.querySelector('fieldset')!.disabled = false;
    await el.updateComplete;
    expect(input(el, 'name').disabled).to.equal(false);
    el.disabled = true;
    await el.updateComplete;
    expect(input(el, 'name').disabled).to.equal(true);
    expect(kind(el, true).matches(':disabled')).to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('warns before the page is left with unsaved changes, and only then', async () => {
    const { token } = await newCustomer();
    const el = await editForm(token);
    const leave = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(leave()).to.equal(false);
    autofill(input(el, 'city'), 'Poznań');
    await el.updateComplete;
    expect(leave()).to.equal(true);
    autofill(input(el, 'city'), 'Warszawa');
    await el.updateComplete;
    expect(leave()).to.equal(false);
    autofill(input(el, 'city'), 'Łódź');
    await el.updateComplete;
    expect(leave()).to.equal(true);
    el.remove();
    expect(leave()).to.equal(false);
  });

  it('speaks Polish, with country names from the browser, and fits a 320 px screen', async () => {
    const { token } = await newCustomer();
    await setViewport({ width: 320, height: 800 });
    const el = await editForm(token, 'pl');
    expect(el.querySelector(`label[for="${input(el, 'name').id}"]`)!.textContent).to.contain('Nazwa firmy');
    const country = input(el, 'country') as unknown as HTMLSelectElement;
    expect(country.selectedOptions[0]!.textContent).to.equal('Polska');
    expect([...country.options].some((o) => o.value === 'DE' && o.textContent === 'Niemcy')).to.equal(true);
    autofill(input(el, 'tax_no'), '5252445768');
    submitButton(el).click();
    await shown(el, 'tax_no');
    expect(errorOf(el, 'tax_no')).to.equal('Ten NIP jest nieprawidłowy. Sprawdź jego 10 cyfr.');
    expect(el.scrollWidth).to.be.at.most(el.clientWidth);
    expect(document.documentElement.scrollWidth).to.be.at.most(320);
    await expect(el).to.be.accessible();
  });

  it('explains a failed load with a retry, in the dark theme too', async () => {
    const el = await fixture<ClientForm>(html`<client-form endpoint=${bff} portal-token="not-a-token" theme="dark" locale="en"></client-form>`);
    const failed = (await oneEvent(el, 'client-error')) as ClientErrorEvent;
    expect(failed.detail).to.deep.include({ action: 'load', status: 401 });
    await el.updateComplete;
    const alert = el.querySelector('[role="alert"]')!;
    expect(alert.textContent).to.contain('We couldn’t load your details.');
    expect(alert.textContent).to.contain('Your session has expired.');
    expect(input(el, 'name').disabled).to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('turns a stored country name into its code, saved with the next save, and asks for a missing company tax number', async () => {
    const { id, token } = await newCustomer({ country: 'United Kingdom', tax_no: '' });
    const el = await editForm(token);
    expect(input(el, 'country').value).to.equal('GB');
    expect(el.dirty).to.equal(false);
    submitButton(el).click();
    await shown(el, 'post_code');
    expect(errorOf(el, 'tax_no')).to.equal('Enter the company’s tax number.');
    expect(errorOf(el, 'post_code')).to.equal('Enter the post code as SW1A 1AA.');
    autofill(input(el, 'tax_no'), 'GB980780684');
    autofill(input(el, 'post_code'), 'EC1A 1BB');
    const saved = oneEvent(el, 'client-saved') as Promise<ClientSavedEvent>;
    submitButton(el).click();
    await saved;
    expect(await serviceClient(id)).to.include({ country: 'GB', tax_no: 'GB980780684', post_code: 'EC1A 1BB' });
  });

  it('is styled through ::part() from outside a component that wraps it in its shadow root', async () => {
    const { token } = await newCustomer({ name: 'Parts Ltd' });
    if (!customElements.get('account-panel')) {
      customElements.define(
        'account-panel',
        class extends HTMLElement {
          constructor() {
            super();
            this.attachShadow({ mode: 'open' });
          }
        },
      );
    }
    const host = await fixture<HTMLElement>(html`<div>
      <style>
        account-panel::part(input) { outline: 3px solid rgb(1, 2, 3); }
        account-panel::part(field-error) { letter-spacing: 2px; }
        account-panel::part(submit-button) { text-transform: uppercase; }
      </style>
      <account-panel></account-panel>
    </div>`);
    const panel = host.querySelector('account-panel')!;
    const el = document.createElement('client-form') as ClientForm;
    el.setAttribute('endpoint', bff);
    el.setAttribute('portal-token', token);
    el.setAttribute('locale', 'en');
    panel.shadowRoot!.append(el);
    await settled(el);
    expect(getComputedStyle(input(el, 'name')).outlineColor).to.equal('rgb(1, 2, 3)');
    expect(getComputedStyle(input(el, 'country')).outlineColor).to.equal('rgb(1, 2, 3)');
    expect(getComputedStyle(el.querySelector('.cf-error')!).letterSpacing).to.equal('2px');
    expect(getComputedStyle(submitButton(el)).textTransform).to.equal('uppercase');
    // The parts carry the same names as the other elements' parts.
    expect([...el.querySelectorAll('[part]')].flatMap((node) => node.getAttribute('part')!.split(' '))).to.include.members(['field', 'label', 'input', 'button', 'status']);
  });
});
