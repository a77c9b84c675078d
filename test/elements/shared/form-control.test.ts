import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { FormControl } from '../../../src/elements/shared/form-control.js';

/** A control whose one input must not be empty. */
class ControlHost extends LitElement {
  static formAssociated = true;
  static override properties = { text: {} };
  text = '';
  revealed = 0;
  resets = 0;
  control = new FormControl(this, {
    problem: () => (this.text ? undefined : { message: 'Type something.', anchor: this.querySelector('input') ?? undefined }),
    invalid: () => (this.revealed += 1),
  });
  protected override createRenderRoot() {
    return this;
  }
  formResetCallback() {
    this.resets += 1;
    this.text = '';
  }
  formDisabledCallback(disabled: boolean) {
    this.control.disabledByForm(disabled);
  }
  override render() {
    return html`<input name="text" .value=${this.text} ?disabled=${this.control.formDisabled} />`;
  }
}
customElements.define('control-host', ControlHost);

describe('FormControl', () => {
  it('reports the host’s problem to the page’s form, which refuses to submit and tells the host', async () => {
    const form = await fixture<HTMLFormElement>(html`<form><control-host></control-host></form>`);
    const el = form.querySelector<ControlHost>('control-host')!;
    await el.updateComplete;
    expect(el.control.form).to.equal(form);
    expect(el.control.nested).to.equal(true);
    expect(el.control.checkValidity()).to.equal(false);
    expect(el.control.validity.customError).to.equal(true);
    expect(el.control.validationMessage).to.equal('Type something.');
    expect(form.checkValidity()).to.equal(false);
    expect(el.revealed, 'each failed check, the control’s and the form’s, fired invalid at the host').to.equal(2);
    el.text = 'hello';
    await el.updateComplete;
    expect(el.control.validity.valid).to.equal(true);
    expect(form.checkValidity()).to.equal(true);
    expect(el.revealed).to.equal(2);
  });

  it('is disabled by a disabled fieldset and enabled again with it', async () => {
    const form = await fixture<HTMLFormElement>(html`<form><fieldset><control-host></control-host></fieldset></form>`);
    const el = form.querySelector<ControlHost>('control-host')!;
    await el.updateComplete;
    form.querySelector('fieldset')!.disabled = true;
    await el.updateComplete;
    expect(el.control.formDisabled).to.equal(true);
    expect(el.querySelector('input')!.disabled).to.equal(true);
    form.querySelector('fieldset')!.disabled = false;
    await el.updateComplete;
    expect(el.control.formDisabled).to.equal(false);
    expect(el.querySelector('input')!.disabled).to.equal(false);
  });

  it('takes part in the form’s reset', async () => {
    const form = await fixture<HTMLFormElement>(html`<form><control-host text="typed"></control-host></form>`);
    const el = form.querySelector<ControlHost>('control-host')!;
    await el.updateComplete;
    expect(el.control.checkValidity()).to.equal(true);
    form.reset();
    await el.updateComplete;
    expect(el.resets).to.equal(1);
    expect(el.control.checkValidity()).to.equal(false);
  });

  it('on its own, outside any form, is a form of its own', async () => {
    const el = await fixture<ControlHost>(html`<control-host></control-host>`);
    expect(el.control.form).to.equal(null);
    expect(el.control.nested).to.equal(false);
  });
});
