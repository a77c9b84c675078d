/** What the service fills in for one product. */
export interface WidgetScriptOptions {
  /** The service's public address, where the button asks for the product and starts the checkout. */
  appUrl: string;
  prefix: string;
  token: string;
  /** The product's name, for the fallback link's text. */
  name: string;
  /** The `<product-pay-button>` bundle, addressed by its content hash. */
  bundleUrl: string;
  /** The product's order page, which works without JavaScript. */
  orderUrl: string;
}
