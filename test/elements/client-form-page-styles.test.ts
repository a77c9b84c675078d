import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/elements/client-form/define.js';
import type { ClientForm } from '../../src/elements/client-form/client-form.js';
import { COUNTRY_CODES } from '../../src/kernel/validation/client.js';
import { portal } from './support/portal.js';

/**
 * The form on a host page with its own label rules (issue 45: the demo's `label { display: grid }`
 * put "(optional)" on a line of its own), and its country list in the reader's language.
 */
const { bff } = await portal();

async function signUpForm(locale: string): Promise<ClientForm> {
  const page = await fixture<HTMLElement>(html`<div class="page" style="width: 358px">
    <style>
      .page label { display: grid; gap: 0.3rem; }
    </style>
    <client-form endpoint=${bff} mode="create" locale=${locale}></client-form>
  </div>`);
  const el = page.querySelector<ClientForm>('client-form')!;
  await waitUntil(() => el.querySelector('label > .cf-note'), 'the form did not render', { timeout: 10_000 });
  await el.updateComplete;
  return el;
}

describe('<client-form> on a page with its own label rules', () => {
  it('keeps "(optional)" on its label’s line', async () => {
    const el = await signUpForm('en');
    const note = el.querySelector<HTMLElement>('label > .cf-note')!;
    const label = note.closest('label')!;
    expect(note.textContent).to.equal('(optional)');
    expect(getComputedStyle(label).display).to.equal('block');
    // One line: the label is as tall as one line of its text.
    expect(Math.round(label.getBoundingClientRect().height)).to.equal(Math.round(parseFloat(getComputedStyle(label).lineHeight)));
    await expect(el).to.be.accessible();
  });

  it('lists every country, named in Polish and sorted by that name', async () => {
    const el = await signUpForm('pl');
    const options = [...el.querySelector<HTMLSelectElement>('select[data-field="country"]')!.options].filter((option) => option.value);
    expect(options.length).to.equal(COUNTRY_CODES.length);
    const labels = options.map((option) => option.textContent!);
    expect(labels).to.deep.equal([...labels].sort((a, b) => a.localeCompare(b, 'pl')));
    expect(options.find((option) => option.value === 'JP')!.textContent).to.equal('Japonia');
  });
});
