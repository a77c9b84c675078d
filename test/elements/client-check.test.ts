import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { ClientCheck } from '../../src/elements/client-form/client-check.js';
import { holdNextAnswer } from './support/held-answers.js';
import { portal } from './support/portal.js';

/** `<client-form>`'s check controller on its own, against the real BFF's `POST /client-check`. */
const { bff, heldBff } = await portal();

class CheckHost extends LitElement {
  endpoint = bff;
  updates = 0;
  readonly check = new ClientCheck(this, () => this.endpoint);
  protected override updated(): void {
    this.updates += 1;
  }
}
customElements.define('client-check-host', CheckHost);

const FIELDS = ['name', 'tax_no', 'post_code', 'country'] as const;
const company = { company: true, name: 'Muster GmbH', tax_no: 'DE136695977', post_code: '1011', country: 'DE' };
const none = () => false;

describe('ClientCheck', () => {
  it('answers the BFF’s verdict by field, while the field, the country and the company choice stand', async () => {
    const host = await fixture<CheckHost>(html`<client-check-host></client-check-host>`);
    host.check.ask(company);
    expect(host.check.problems(FIELDS, company, none)).to.deep.equal({});
    await host.check.answered();
    await host.updateComplete;
    expect(host.updates).to.equal(2);
    expect(host.check.problems(FIELDS, company, none)).to.deep.equal({ tax_no: 'vat', post_code: 'postCode' });
    expect(host.check.postCodeExample).to.equal('10115');
    // Another field changed: both verdicts stand. The post code changed: its verdict goes.
    expect(host.check.problems(FIELDS, { ...company, name: 'Muster AG' }, none)).to.deep.equal({ tax_no: 'vat', post_code: 'postCode' });
    expect(host.check.problems(FIELDS, { ...company, post_code: '10115' }, none)).to.deep.equal({ tax_no: 'vat' });
    // The country or the company choice changed: every verdict goes, as each may depend on them.
    expect(host.check.problems(FIELDS, { ...company, country: 'AT' }, none)).to.deep.equal({});
    expect(host.check.problems(FIELDS, { ...company, company: false }, none)).to.deep.equal({});
    // A required field left blank is the form's own verdict, before the BFF's.
    expect(host.check.problems(FIELDS, { ...company, name: ' ' }, (name) => name === 'name')).to.deep.equal({ name: 'required', tax_no: 'vat', post_code: 'postCode' });
  });

  it('asks again only for other fields, and settles an older wait when newer fields come', async () => {
    const host = await fixture<CheckHost>(html`<client-check-host></client-check-host>`);
    host.endpoint = heldBff;
    const held = await holdNextAnswer('portal', 'POST', /^\/bff\/client-check$/);
    host.check.ask(company);
    const older = host.check.answered();
    await held.arrived();
    // The same fields again: the question under way stands.
    host.check.ask({ ...company });
    host.check.ask(undefined);
    // The older wait ends without a verdict; the held answer, released, never lands.
    await older;
    expect(await held.release()).to.equal('abandoned');
    expect(host.check.problems(FIELDS, company, none)).to.deep.equal({});
    await host.check.answered();
  });
});
