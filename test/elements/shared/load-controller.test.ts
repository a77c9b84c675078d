import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { LoadController } from '../../../src/elements/shared/load-controller.js';
import { held } from '../support/held.js';

/** A host that renders what the controller says, as the elements do. */
class LoadHost extends LitElement {
  loads = new LoadController<string>(this);
  override render() {
    return html`<p>${this.loads.status}: ${this.loads.value ?? ''}${this.loads.error ? ` (${String(this.loads.error)})` : ''}</p>`;
  }
}
customElements.define('load-host', LoadHost);

async function host(): Promise<LoadHost> {
  return fixture<LoadHost>(html`<load-host></load-host>`);
}
const shown = async (el: LoadHost) => {
  await el.updateComplete;
  return el.shadowRoot!.querySelector('p')!.textContent;
};

describe('LoadController', () => {
  it('is pending while the answer is held, complete once it is released', async () => {
    const el = await host();
    expect(await shown(el)).to.equal('initial: ');
    const answer = held<string>();
    const run = el.loads.run(answer.take);
    expect(await shown(el)).to.equal('pending: ');
    answer.release('first');
    expect(await run).to.equal('first');
    expect(await shown(el)).to.equal('complete: first');
  });

  it('aborts the call before and lets only the latest call land, whatever order the answers come in', async () => {
    const el = await host();
    const older = held<string>();
    const newer = held<string>();
    const first = el.loads.run(older.take);
    const second = el.loads.run(newer.take);
    expect(older.signal!.aborted, 'the older call is aborted').to.equal(true);
    expect(newer.signal!.aborted).to.equal(false);
    newer.release('newer');
    expect(await second).to.equal('newer');
    // The older answer arrives late: it must not land.
    older.release('older');
    expect(await first).to.equal(undefined);
    expect(await shown(el)).to.equal('complete: newer');
  });

  it('keeps the last value while the next load is pending, and a stale failure never lands', async () => {
    const el = await host();
    const one = held<string>();
    const loaded = el.loads.run(one.take);
    one.release('page 1');
    await loaded;
    expect(await shown(el)).to.equal('complete: page 1');
    const failing = held<string>();
    const two = held<string>();
    const stale = el.loads.run(failing.take);
    const latest = el.loads.run(two.take);
    expect(await shown(el)).to.equal('pending: page 1');
    failing.fail(new Error('late failure'));
    expect(await stale).to.equal(undefined);
    expect(await shown(el)).to.equal('pending: page 1');
    two.release('page 2');
    expect(await latest).to.equal('page 2');
    expect(await shown(el)).to.equal('complete: page 2');
  });

  it('reports the latest failure, and clears it when a later load answers', async () => {
    const el = await host();
    const failing = held<string>();
    const run = el.loads.run(failing.take);
    failing.fail(new Error('offline'));
    expect(await run).to.equal(undefined);
    expect(await shown(el)).to.equal('error:  (Error: offline)');
    const retry = held<string>();
    const retried = el.loads.run(retry.take);
    expect(el.loads.error, 'the failure stays known while the retry is pending').to.be.an('error');
    retry.release('back');
    await retried;
    expect(await shown(el)).to.equal('complete: back');
  });

  it('abort stops the load under way: its answer never lands and the status goes back to initial', async () => {
    const el = await host();
    const answer = held<string>();
    const run = el.loads.run(answer.take);
    el.loads.abort();
    expect(answer.signal!.aborted).to.equal(true);
    expect(await shown(el)).to.equal('initial: ');
    answer.release('too late');
    expect(await run).to.equal(undefined);
    expect(await shown(el)).to.equal('initial: ');
  });

  it('abort forgets a failure, and leaves an answered load as it is', async () => {
    const el = await host();
    const failing = held<string>();
    const failed = el.loads.run(failing.take);
    failing.fail(new Error('offline'));
    await failed;
    el.loads.abort();
    expect(await shown(el)).to.equal('initial: ');
    const answer = held<string>();
    const answered = el.loads.run(answer.take);
    answer.release('kept');
    await answered;
    el.loads.abort();
    expect(await shown(el)).to.equal('complete: kept');
  });
});
