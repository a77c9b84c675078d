import { expect, fixture, html } from '@open-wc/testing';
import { LitElement, type PropertyDeclarations } from 'lit';
import { Task } from '../../../src/elements/shared/task.js';
import { held, type Held } from '../support/held.js';

/**
 * A host that renders what its task says, as the elements do, and keeps every text it rendered. Its
 * task takes the next held answer in `next`; with none waiting it answers at once with the product
 * (or fails at once for `broken`), as an element does with an answer already in hand.
 */
class TaskHost extends LitElement {
  static override properties: PropertyDeclarations = { product: {}, other: {} };
  product = 'a';
  other = 0;
  next: Held<string>[] = [];
  calls: string[] = [];
  rendered: string[] = [];
  completed: string[] = [];
  failed: unknown[] = [];
  pages = new Task(this, {
    args: () => [this.product] as const,
    task: ([product], { signal }) => {
      this.calls.push(product);
      const answer = this.next.shift();
      if (answer) return answer.take(signal);
      if (product === 'broken') throw new Error('broken');
      return product;
    },
    onComplete: (value) => this.completed.push(value),
    onError: (error) => this.failed.push(error),
  });
  override render() {
    return html`<p>${this.pages.status}: ${this.pages.value ?? ''}${this.pages.error ? ` (${String(this.pages.error)})` : ''}</p>`;
  }
  override updated() {
    this.rendered.push(this.renderRoot.querySelector('p')!.textContent!);
  }
}
customElements.define('task-host', TaskHost);

/** A host whose first runs take `answers`, in the page and rendered once. */
async function host(...answers: Held<string>[]): Promise<TaskHost> {
  const el = document.createElement('task-host') as TaskHost;
  expect(el.pages.status, 'nothing runs before the host is in a page').to.equal('initial');
  el.next.push(...answers);
  await fixture(html`<div>${el}</div>`);
  await el.updateComplete;
  return el;
}
const shown = async (el: TaskHost) => {
  await el.updateComplete;
  return el.renderRoot.querySelector('p')!.textContent;
};

describe('Task', () => {
  it('runs when the host first updates: pending while the answer is held, complete once it is released', async () => {
    const answer = held<string>();
    const el = await host(answer);
    expect(await shown(el)).to.equal('pending: ');
    expect(el.calls).to.deep.equal(['a']);
    expect(answer.signal!.aborted).to.equal(false);
    answer.release('first');
    await answer.delivered();
    expect(await shown(el)).to.equal('complete: first');
    expect(el.completed).to.deep.equal(['first']);
  });

  it('runs again when an argument changes, and not when another property does', async () => {
    const one = held<string>();
    const el = await host(one);
    one.release('A');
    await one.delivered();
    expect(await shown(el)).to.equal('complete: A');
    el.other = 1;
    expect(await shown(el)).to.equal('complete: A');
    expect(el.calls).to.deep.equal(['a']);
    const two = held<string>();
    el.next.push(two);
    el.product = 'b';
    expect(await shown(el), 'the last answer stays while the next is pending').to.equal('pending: A');
    two.release('B');
    await two.delivered();
    expect(await shown(el)).to.equal('complete: B');
    expect(el.calls).to.deep.equal(['a', 'b']);
  });

  it('never renders a stale answer: hold it, change the arguments, release it, and only the new one lands', async () => {
    const older = held<string>();
    const newer = held<string>();
    const el = await host(older, newer);
    el.product = 'b';
    await el.updateComplete;
    expect(older.signal!.aborted, 'the older run is aborted').to.equal(true);
    expect(newer.signal!.aborted).to.equal(false);
    older.release('for a');
    await older.delivered();
    expect(await shown(el)).to.equal('pending: ');
    newer.release('for b');
    await newer.delivered();
    expect(await shown(el)).to.equal('complete: for b');
    expect(el.rendered).to.deep.equal(['pending: ', 'pending: ', 'complete: for b']);
    expect(el.completed).to.deep.equal(['for b']);
  });

  it('never renders a stale answer that comes after the new one', async () => {
    const older = held<string>();
    const newer = held<string>();
    const el = await host(older, newer);
    el.product = 'b';
    await el.updateComplete;
    newer.release('for b');
    await newer.delivered();
    expect(await shown(el)).to.equal('complete: for b');
    older.release('for a');
    await older.delivered();
    expect(await shown(el)).to.equal('complete: for b');
    expect(el.rendered).to.deep.equal(['pending: ', 'pending: ', 'complete: for b']);
    expect(el.completed).to.deep.equal(['for b']);
  });

  it('run() runs again with the current arguments, aborting the run under way; only the latest lands', async () => {
    const older = held<string>();
    const newer = held<string>();
    const el = await host(older, newer);
    const second = el.pages.run();
    expect(older.signal!.aborted, 'the older run is aborted').to.equal(true);
    expect(newer.signal!.aborted).to.equal(false);
    expect(el.calls).to.deep.equal(['a', 'a']);
    newer.release('newer');
    await second;
    // The older answer arrives late: it must not land.
    older.release('older');
    await older.delivered();
    expect(await shown(el)).to.equal('complete: newer');
    expect(el.completed).to.deep.equal(['newer']);
  });

  it('keeps the last value while the next run is pending, and a stale failure never lands', async () => {
    const one = held<string>();
    const el = await host(one);
    one.release('page 1');
    await one.delivered();
    expect(await shown(el)).to.equal('complete: page 1');
    const failing = held<string>();
    const two = held<string>();
    el.next.push(failing, two);
    el.product = 'b';
    await el.updateComplete;
    const latest = el.pages.run();
    expect(await shown(el)).to.equal('pending: page 1');
    failing.fail(new Error('late failure'));
    await failing.delivered();
    expect(await shown(el)).to.equal('pending: page 1');
    expect(el.failed).to.deep.equal([]);
    two.release('page 2');
    await latest;
    expect(await shown(el)).to.equal('complete: page 2');
  });

  it('reports the latest failure, and clears it when a later run answers', async () => {
    const failing = held<string>();
    const el = await host(failing);
    failing.fail(new Error('offline'));
    await failing.delivered();
    expect(await shown(el)).to.equal('error:  (Error: offline)');
    expect(el.failed.map(String)).to.deep.equal(['Error: offline']);
    const retry = held<string>();
    el.next.push(retry);
    const retried = el.pages.run();
    expect(el.pages.error, 'the failure stays known while the retry is pending').to.be.an('error');
    retry.release('back');
    await retried;
    expect(await shown(el)).to.equal('complete: back');
  });

  it('lands an answer already in hand in the same update, never pending, and a failure in hand too', async () => {
    const el = await host();
    expect(el.rendered).to.deep.equal(['complete: a']);
    el.product = 'broken';
    expect(await shown(el)).to.equal('error: a (Error: broken)');
    expect(el.rendered).to.deep.equal(['complete: a', 'error: a (Error: broken)']);
  });

  it('abort stops the run under way: its answer never lands, and the status goes back to initial', async () => {
    const answer = held<string>();
    const el = await host(answer);
    el.pages.abort();
    expect(answer.signal!.aborted).to.equal(true);
    expect(await shown(el)).to.equal('initial: ');
    answer.release('too late');
    await answer.delivered();
    expect(await shown(el)).to.equal('initial: ');
    expect(el.completed).to.deep.equal([]);
  });

  it('abort forgets a failure, and leaves an answered run as it is', async () => {
    const failing = held<string>();
    const el = await host(failing);
    failing.fail(new Error('offline'));
    await failing.delivered();
    el.pages.abort();
    expect(await shown(el)).to.equal('initial: ');
    const answer = held<string>();
    el.next.push(answer);
    const answered = el.pages.run();
    answer.release('kept');
    await answered;
    el.pages.abort();
    expect(await shown(el)).to.equal('complete: kept');
  });

  it('runs again when put back into a page after abort stopped it there, and keeps an answer it had', async () => {
    const answer = held<string>();
    const el = await host(answer);
    const parent = el.parentNode!;
    el.remove();
    el.pages.abort();
    el.other = 1;
    expect(await shown(el), 'an update out of the page does not run it again').to.equal('initial: ');
    answer.release('too late');
    await answer.delivered();
    parent.appendChild(el);
    expect(await shown(el)).to.equal('complete: a');
    expect(el.calls).to.deep.equal(['a', 'a']);
    el.remove();
    el.pages.abort();
    parent.appendChild(el);
    expect(await shown(el)).to.equal('complete: a');
    expect(el.calls, 'an answer already shown is kept').to.deep.equal(['a', 'a']);
  });
});
