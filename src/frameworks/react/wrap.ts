import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import type { InvoicekitElements, PascalEventName } from '../elements.js';

type Tag = keyof InvoicekitElements;
type Events<T extends Tag> = InvoicekitElements[T]['events'];

/** Each event of the element as its React prop name: `{ onPaySuccess: 'pay-success', … }`, every event once. */
export type EventProps<T extends Tag> = { [K in keyof Events<T> & string as `on${PascalEventName<K>}`]: K };

/** What `createComponent` reads the listener types from: each prop's event name, branded with its event class. */
export type TypedEventProps<T extends Tag> = { [K in keyof Events<T> & string as `on${PascalEventName<K>}`]: EventName<Extract<Events<T>[K], Event>> };

/** How React treats what is inside the element. */
export interface WrapOptions {
  /**
   * The element draws its own content into its light DOM (`<client-form>`, for the browser's
   * autofill). React is told the content is not its own (an empty `dangerouslySetInnerHTML`, the
   * same object at every render): it neither hydrates nor replaces it, so an element that upgraded and
   * drew before hydration is no mismatch (React's error #418), and takes no children.
   */
  ownsLightDom?: boolean;
}

/** Whether this render is on a server where `@lit-labs/ssr-react` renders Lit elements deeply. */
const litSsr = (): boolean => (globalThis as { litSsrReactEnabled?: boolean }).litSsrReactEnabled === true;

/** Empty markup, one object for every render, so that React never sets it again after the first. */
const OWN_CONTENT = Object.freeze({ __html: '' });

/**
 * Wraps one element as a React component: every public property is a typed prop, and each event is
 * an `on…` prop whose listener receives the element's own event class (`onPaySuccess(event)` gets a
 * `PaySuccessEvent`). `events` is checked against the element map, so an event left out (or a
 * misspelt one) does not compile.
 */
export function wrap<T extends Tag>(tagName: T, elementClass: new () => InvoicekitElements[T]['element'], events: EventProps<T>, options: WrapOptions = {}) {
  const Component = createComponent({ react: React, tagName, elementClass, events: events as unknown as TypedEventProps<T> });
  if (!options.ownsLightDom) return Component;
  // Typed loosely inside: the component it returns has the wrapped component's own props.
  const Inner = Component as unknown as React.ComponentType<Record<string, unknown> & React.RefAttributes<HTMLElement>>;
  const OwnContent = React.forwardRef<HTMLElement, Record<string, unknown>>((props, ref) =>
    // Under Lit's SSR for React (`@lit-labs/nextjs`) the server gives the element a declarative shadow
    // root as its child, which React allows only without `dangerouslySetInnerHTML`; the browser never
    // sees that child (the parser turns it into the shadow root), so both still hydrate as one.
    React.createElement(Inner, { ...props, children: undefined, ...(litSsr() ? {} : { dangerouslySetInnerHTML: OWN_CONTENT }), ref }),
  );
  OwnContent.displayName = Component.displayName ?? tagName;
  return OwnContent as unknown as typeof Component;
}
