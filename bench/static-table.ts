/** A plain 25-row table, the floor the list's figures are measured against. */
export function staticTable(rows: number): string {
  const cells = (i: number) =>
    `<tr data-row><th>${i}/01/2026</th><td>2026-01-${String((i % 28) + 1).padStart(2, '0')}</td><td>2026-02-01</td><td>1 845,00 zł</td><td>0,00 zł</td><td><span>Paid</span></td><td><button>PDF</button></td></tr>`;
  return `<table><thead><tr><th>Number</th><th>Issued</th><th>Due</th><th>Total</th><th>Due</th><th>Status</th><th></th></tr></thead><tbody>${Array.from({ length: rows }, (_, i) => cells(i)).join('')}</tbody></table>`;
}
