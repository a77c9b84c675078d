import type { Language } from '../shared/i18n.js';

/**
 * The words of an open KSeF detail, in every language the list speaks. They load with the detail
 * (`ksef-detail.ts`), not with the list: a few hundred bytes in both languages, where a module per
 * language would cost an opening a second request.
 */
const en = {
  ksefStateLabel: 'State',
  ksefSentAt: 'Sent to KSeF',
  ksefVerify: 'Verify in KSeF',
  ksefOffline: 'Issued offline: valid now, and sent to KSeF afterwards.',
  ksefPendingText: 'The seller has sent the invoice; KSeF has not assigned its number yet.',
  ksefErrors: {
    rejected: 'KSeF did not accept the invoice. The seller has been told and will correct it and send it again.',
    unavailable: 'KSeF was unavailable. The seller will send the invoice again.',
  },
  ksefTestText: 'Sent to a KSeF test environment: it has no legal force.',
};

export type KsefDetailMessages = typeof en;

export const ksefDetailMessages: Record<Language, KsefDetailMessages> = {
  en,
  pl: {
    ksefStateLabel: 'Stan',
    ksefSentAt: 'Wysłano do KSeF',
    ksefVerify: 'Sprawdź w KSeF',
    ksefOffline: 'Wystawiona offline: ważna już teraz, do KSeF trafia później.',
    ksefPendingText: 'Sprzedawca wysłał fakturę; KSeF nie nadał jej jeszcze numeru.',
    ksefErrors: {
      rejected: 'KSeF nie przyjął faktury. Sprzedawca został o tym powiadomiony, poprawi ją i wyśle ponownie.',
      unavailable: 'KSeF był niedostępny. Sprzedawca wyśle fakturę ponownie.',
    },
    ksefTestText: 'Wysłana do testowego środowiska KSeF: nie ma mocy prawnej.',
  },
};
