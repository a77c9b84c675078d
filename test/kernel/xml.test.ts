import { describe, expect, it } from 'vitest';
import { decodeXml, encodeXml, singularName } from '../../src/kernel/xml.js';

describe('XML codec', () => {
  it('reads a typed list into the shapes JSON gives: numbers, booleans, null, decimal strings', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<invoices type="array">
  <invoice>
    <id type="integer">55</id>
    <number>55/01/2026</number>
    <price_gross>60.23</price_gross>
    <show_discount type="boolean">false</show_discount>
    <paid_date nil="true"/>
    <description></description>
    <positions type="array">
      <position><id type="integer">1</id><tax>23</tax><quantity>1.0</quantity></position>
    </positions>
  </invoice>
  <invoice><id type="integer">56</id><positions type="array"/></invoice>
</invoices>`;
    expect(decodeXml(xml)).toEqual([
      {
        id: 55,
        number: '55/01/2026',
        price_gross: '60.23',
        show_discount: false,
        paid_date: null,
        description: '',
        positions: [{ id: 1, tax: '23', quantity: '1.0' }],
      },
      { id: 56, positions: [] },
    ]);
  });

  it('reads an empty list and Rails-style dasherized names', () => {
    expect(decodeXml('<clients type="array"/>')).toEqual([]);
    expect(decodeXml('<client><tax-no>123</tax-no><external-id nil="true"></external-id><company type="boolean">true</company></client>')).toEqual({
      tax_no: '123',
      external_id: null,
      company: true,
    });
  });

  it('decodes predefined entities and character references but never declared entities', () => {
    expect(decodeXml('<client><name>A &amp; B &lt;C&gt; &#x17C;&#243;&#322;w</name></client>')).toEqual({ name: 'A & B <C> żółw' });
    expect(() => decodeXml('<!DOCTYPE x [<!ENTITY a "aaaa">]><client><name>&a;</name></client>')).toThrow(/DTD/);
  });

  it('writes a body with the wrapper as root and round-trips it', () => {
    const body = {
      kind: 'vat',
      number: null,
      buyer_name: 'Zażółć "Gęślą" & Jaźń',
      show_discount: true,
      positions: [{ name: 'A', tax: 23, total_price_gross: 10.23, quantity: 1 }],
    };
    const xml = encodeXml('invoice', body);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<invoice>')).toBe(true);
    expect(decodeXml(xml)).toEqual({
      kind: 'vat',
      number: null,
      buyer_name: 'Zażółć "Gęślą" & Jaźń',
      show_discount: true,
      // Decimals travel as text, so 10.23 is never rounded by a float on the way.
      positions: [{ name: 'A', tax: 23, total_price_gross: '10.23', quantity: 1 }],
    });
  });

  it('names list items in the singular', () => {
    expect(['positions', 'warehouse_actions', 'categories', 'addresses', 'data'].map(singularName)).toEqual([
      'position', 'warehouse_action', 'category', 'address', 'data_item',
    ]);
  });
});
