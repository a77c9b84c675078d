import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import type { InvoicekitElements, PascalEventName } from '../elements.js';

type Tag = keyof InvoicekitElements;
type Events<T extends Tag> = InvoicekitElements[T]['events'];

/** Each event of the element as its React prop name: `{ onPaySuccess: 'pay-success', … }`, every event once. */
export type EventProps<T extends Tag> = { [K in keyof Events<T> & string as `on${PascalEventName<K>}`]: K };

/** What `createComponent` reads the listener types from: each prop's event name, branded with its event class. */
export type TypedEventProps<T extends Tag> = { [K in keyof Events<T> & string as `on${PascalEventName<K>}`]: EventName<Extract<Events<T>[K], Event>> };

/**
 * Wraps one element as a React component: every public property is a typed prop, and each event is
 * an `on…` prop whose listener receives the element's own event class (`onPaySuccess(event)` gets a
 * `PaySuccessEvent`). `events` is checked against the element map, so an event left out (or a
 * misspelt one) does not compile.
 */
export function wrap<T extends Tag>(tagName: T, elementClass: new () => InvoicekitElements[T]['element'], events: EventProps<T>) {
  return createComponent({ react: React, tagName, elementClass, events: events as unknown as TypedEventProps<T> });
}
