import type { PayButtonMessages } from './messages.js';

const pl: PayButtonMessages = {
  buy: 'Kup teraz',
  loading: 'Wczytywanie…',
  unavailable: 'Płatności online są niedostępne.',
  retry: 'Spróbuj ponownie',
  testMode: 'Tryb testowy',
  quantity: 'Ilość',
  email: 'E-mail do faktury',
  name: 'Imię i nazwisko',
  company: 'Faktura na firmę',
  companyName: 'Nazwa firmy',
  taxNo: 'NIP',
  asCustomer: 'Faktura na dane z Twojego konta.',
  unitPrice: 'Cena jednostkowa',
  total: 'Razem',
  continue: 'Przejdź do płatności',
  cancel: 'Anuluj',
  redirecting: 'Otwieramy stronę płatności…',
  checking: 'Sprawdzamy płatność…',
  paid: (invoice?: string) => `Płatność przyjęta. Dziękujemy!${invoice ? ` Faktura ${invoice} jest w drodze na Twój e-mail.` : ''}`,
  viewInvoice: (number: string) => `Zobacz fakturę ${number}`,
  declined: 'Płatność odrzucona. Nic nie pobrano.',
  cancelled: 'Płatność niedokończona. Nic nie pobrano.',
  errors: {
    offline: 'Brak połączenia z serwerem.',
    busy: 'Zbyt wiele prób. Odczekaj chwilę.',
    invalid: 'Sprawdź',
    failed: 'Coś poszło nie tak.',
  },
};

export default pl;
