import { DEFAULT_XML_LIMITS, encodeXml, readXml, type XmlLimits } from '../kernel/xml.js';

/**
 * XML both ways, as the hosted (Rails) service speaks it, on the codec the typed client uses.
 * Requests may use underscored names or Rails-style dasherized names with
 * `type="integer|decimal|boolean|array"` and `nil="true"`; answers use underscored names.
 */
export class XmlInputError extends Error {}

/** Fields that are lists even when a request carries a single child or none. */
const LIST_FIELDS: ReadonlySet<string> = new Set(['positions', 'warehouse_actions', 'descriptions', 'settlement_positions', 'recipients', 'issuers', 'invoice_ids']);

/**
 * Parses an XML request body into `{ rootName: value }`. Refuses DTDs and entity declarations, and a
 * document past `limits` (elements, depth, attributes, text) before it is parsed.
 */
export function parseXml(text: string, limits: XmlLimits = DEFAULT_XML_LIMITS): Record<string, unknown> {
  try {
    const { root, value } = readXml(text, { listFields: LIST_FIELDS, limits });
    return { [root]: value };
  } catch (error) {
    throw new XmlInputError(error instanceof Error ? error.message : 'malformed XML');
  }
}

/** Serializes a value under `root`; an array becomes `<root type="array">` of singular elements. */
export function toXml(root: string, value: unknown): string {
  return encodeXml(root, value, { pretty: true });
}
