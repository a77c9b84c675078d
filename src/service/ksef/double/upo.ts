import type { StoredInvoice } from './state.js';

/**
 * The UPO (official receipt) of one invoice, in the shape of KSeF's UPO v4-3. The receiver is named
 * as on production UPOs ("Ministerstwo Finansów"): the schema fixes that value, and our tests
 * validate every UPO against it.
 */
export function upoDocument(invoice: StoredInvoice): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<Potwierdzenie xmlns="http://upo.schematy.mf.gov.pl/KSeF/v4-3">
	<NazwaPodmiotuPrzyjmujacego>Ministerstwo Finansów</NazwaPodmiotuPrzyjmujacego>
	<NumerReferencyjnySesji>${invoice.sessionReferenceNumber}</NumerReferencyjnySesji>
	<Uwierzytelnienie>
		<IdKontekstu>
			<Nip>${invoice.sellerNip}</Nip>
		</IdKontekstu>
		<NumerReferencyjnyTokenaKSeF>${invoice.tokenReferenceNumber}</NumerReferencyjnyTokenaKSeF>
	</Uwierzytelnienie>
	<NazwaStrukturyLogicznej>Schemat_FA(3)_v1-0E.xsd</NazwaStrukturyLogicznej>
	<KodFormularza>FA (3)</KodFormularza>
	<Dokument>
		<NipSprzedawcy>${invoice.sellerNip}</NipSprzedawcy>
		<NumerKSeFDokumentu>${invoice.ksefNumber ?? ''}</NumerKSeFDokumentu>
		<NumerFaktury>${escapeXml(invoice.invoiceNumber ?? '')}</NumerFaktury>
		<DataWystawieniaFaktury>${invoice.issueDate ?? ''}</DataWystawieniaFaktury>
		<DataPrzeslaniaDokumentu>${invoice.invoicingDate}</DataPrzeslaniaDokumentu>
		<DataNadaniaNumeruKSeF>${invoice.acquisitionDate ?? ''}</DataNadaniaNumeruKSeF>
		<SkrotDokumentu>${invoice.invoiceHash}</SkrotDokumentu>
		<TrybWysylki>${invoice.offlineMode ? 'Offline' : 'Online'}</TrybWysylki>
	</Dokument>
</Potwierdzenie>
`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
