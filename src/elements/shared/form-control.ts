import type { ReactiveController, ReactiveControllerHost } from 'lit';

export interface FormControlOptions {
  /** The control's first problem, as the page's form should report it: none when it is valid. */
  problem(): { message: string; anchor?: HTMLElement | undefined } | undefined;
  /** A page's form refused to submit because of this control: show why. */
  invalid(): void;
}

/**
 * What makes a custom element a form control of a page's `<form>` (in the manner of Shoelace's
 * `FormControlController`): it holds the element's `ElementInternals`, answers `form`, `validity`,
 * `validationMessage` and `checkValidity()` for it, reports its validity to the form after every
 * update, and knows whether an enclosing `<fieldset disabled>` or form disables it. The element
 * declares `static formAssociated = true` and forwards `formDisabledCallback` to `disabledByForm`;
 * reset stays the element's own `formResetCallback`.
 */
export class FormControl implements ReactiveController {
  /** Disabled by an enclosing disabled fieldset or form. */
  formDisabled = false;
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #internals: ElementInternals;
  readonly #options: FormControlOptions;

  constructor(host: ReactiveControllerHost & HTMLElement, options: FormControlOptions) {
    this.#host = host;
    this.#internals = host.attachInternals();
    this.#options = options;
    host.addController(this);
    host.addEventListener('invalid', () => options.invalid());
  }

  get form(): HTMLFormElement | null {
    return this.#internals.form;
  }

  /** Whether the element sits inside a page's form, where it is a form control rather than a form of its own. */
  get nested(): boolean {
    return !!(this.#internals.form ?? this.#host.parentElement?.closest('form'));
  }

  get validity(): ValidityState {
    return this.#internals.validity;
  }

  get validationMessage(): string {
    return this.#internals.validationMessage;
  }

  checkValidity(): boolean {
    return this.#internals.checkValidity();
  }

  /** From the element's `formDisabledCallback`. */
  disabledByForm(disabled: boolean): void {
    this.formDisabled = disabled;
    this.#host.requestUpdate();
  }

  hostUpdated(): void {
    const problem = this.#options.problem();
    this.#internals.setValidity(problem ? { customError: true } : {}, problem?.message ?? '', problem?.anchor);
  }
}
