import { LitElement, type PropertyDeclarations } from 'lit';
import type { AdminApi } from './api.js';
import { AdminNavigateEvent } from './events.js';
import type { Lang } from './i18n.js';

/**
 * What every back-office view is given by the shell: the API as the signed-in account, the page's
 * language and the route's parameters. A view moves with `navigate(path)` (an `ik-navigate` event).
 */
export class AdminView extends LitElement {
  static override properties: PropertyDeclarations = {
    api: { attribute: false },
    lang: {},
    params: { attribute: false },
  };

  api!: AdminApi;
  override lang: Lang = 'en';
  params: Record<string, string> = {};

  protected navigate(path: string): void {
    this.dispatchEvent(new AdminNavigateEvent(path));
  }

  /** A link's click handler: opens its address in the back office, except with a modifier key (a new tab). */
  protected follow = (event: MouseEvent): void => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    const link = event.currentTarget as HTMLAnchorElement;
    this.navigate(link.pathname + link.search);
  };

  /** Typed alias of `lang` for the strings' `pick`. */
  protected get language(): Lang {
    return this.lang;
  }
}
