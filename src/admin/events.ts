/** A view asks the shell to open another path under `/admin/` (pushed to the history). */
export class AdminNavigateEvent extends Event {
  readonly detail: { readonly path: string };

  constructor(path: string) {
    super('ik-navigate', { bubbles: true, composed: true });
    this.detail = { path };
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'ik-navigate': AdminNavigateEvent;
  }
}
