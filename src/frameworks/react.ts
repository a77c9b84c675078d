import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import { InvoiceList as InvoiceListElement } from '../elements/invoice-list/define.js';
import type { PascalEventName } from './elements.js';

type Handlers<T extends keyof GlobalEventHandlersEventMap> = {
  [K in T as `on${PascalEventName<K>}`]: EventName<GlobalEventHandlersEventMap[K]>;
};

/**
 * Wraps one element as a React component: every public property is a typed prop, and each event is
 * an `on…` prop whose listener receives the element's own event class (`onInvoicePay(event)` gets an
 * `InvoicePayEvent`).
 */
function wrap<E extends HTMLElement, const T extends readonly (keyof GlobalEventHandlersEventMap)[]>(tagName: string, elementClass: new () => E, events: T) {
  const names = Object.fromEntries(events.map((type) => [`on${type.replace(/(?:^|-)(\w)/g, (_, c: string) => c.toUpperCase())}`, type]));
  return createComponent({ react: React, tagName, elementClass, events: names as Handlers<T[number]> });
}

/** `<InvoiceList endpoint="/bff" portalToken={token} onInvoicePay={(event) => …} />` */
export const InvoiceList = wrap('invoice-list', InvoiceListElement, ['invoice-select', 'invoice-download', 'invoice-pay']);
