/**
 * The demo pages' own text in English and Polish. Elements translate themselves; the page tells them
 * which language to use through their `locale` attribute, so the page and the elements always agree.
 */
export type Language = 'en' | 'pl';

const STORAGE_KEY = 'invoicekit-demo-language';
const ELEMENTS = 'invoice-list, product-pay-button, client-form';

const en = {
  'home.pageTitle': 'Demo Studio · invoicekit demo',
  'home.description': 'Demo Studio’s shop, customer portal and account page, built from the invoicekit elements on an embedded invoicing service.',
  'shop.pageTitle': 'Shop · invoicekit demo',
  'shop.description': 'Buy buttons for design work, goods and subscriptions in three currencies: pay on a test payment page and get the invoice by e-mail.',
  'portal.pageTitle': 'Customer portal · invoicekit demo',
  'portal.description': 'A customer’s invoices with filters, search, PDF and payment, what they owe per currency, and their billing details.',
  'account.description': 'A customer keeps their own billing details: tax numbers, addresses and bank accounts, checked the way an invoice needs them.',
  'wiring.description': 'How invoicekit is wired: the elements on your page, the backend-for-frontend on your server, and the invoicing service.',
  'nav.label': 'Demo pages',
  'nav.skip': 'Skip to content',
  'nav.home': 'Overview',
  'nav.shop': 'Shop',
  'nav.portal': 'Customer portal',
  'nav.account': 'Account',
  'nav.wiring': 'How it works',
  'nav.outbox': 'Outbox',
  'nav.language': 'Language',
  'nav.demo': 'Demo',
  'footer.text': 'Demo Studio is a made-up company. Everything on these pages runs on the embedded invoicing service on this machine.',
  'home.title': 'Invoicing that lives in your pages',
  'home.lead': 'Demo Studio sells design work, goods and subscriptions. Its shop, customer portal and account page are built from three invoicekit elements, a small backend-for-frontend and the invoicing service, all running on this machine.',
  'home.shop.title': 'Shop',
  'home.shop.text': 'Pay buttons for products in three currencies, themed and in a dark section. Buy one: you pay on the test payment page, land back in the shop, and the invoice is issued and e-mailed.',
  'home.portal.title': 'Customer portal',
  'home.portal.text': 'What a signed-in customer owes, per currency, their invoices with filters, search, paging, PDF and pay, and their billing details. Switch customers to see each one only ever sees their own.',
  'home.account.title': 'Account',
  'home.account.text': 'The customer keeps their own billing details: tax numbers, addresses and bank accounts are checked the way an invoice needs them.',
  'home.wiring.title': 'How it works',
  'home.wiring.text': 'The few lines a host’s backend needs to mint a portal token, and the tags to paste into a page.',
  'home.outbox.title': 'Outbox',
  'home.outbox.text': 'Where the demo’s e-mail lands instead of going out: every invoice sent to a buyer is here.',
  'home.open': 'Open',
  'home.try': 'Try it',
  'home.step1': 'Buy something in the shop and pay on the test payment page.',
  'home.step2': 'Open the customer portal: the new invoice is listed as paid.',
  'home.step3': 'Read the e-mail with the invoice in the outbox.',
  'portal.title': 'Your account',
  'portal.lead': 'Signed in through the shop’s own login. The shop’s backend gives the page a short-lived portal token; the elements never see an API token.',
  'portal.viewAs': 'Viewing as',
  'portal.owed': 'What you owe',
  'portal.outstanding': 'Outstanding',
  'portal.overdue': 'Overdue',
  'portal.nothingOwed': 'Nothing to pay. Thank you!',
  'portal.invoices': 'Invoices',
  'portal.details': 'Billing details',
  'portal.detailsLead': 'What goes on your next invoices.',
  'portal.paid': 'Payment received. Thank you!',
  'portal.notPaid': 'The payment was not completed.',
  'portal.signInFailed': 'The demo could not sign you in.',
  'shop.title': 'Shop',
  'shop.buyingAs': 'Buying as',
  'shop.guest': 'Guest (no account)',
  'shop.lead': 'Every price comes from the invoicing service. Pay on the test payment page: the invoice is issued and e-mailed, and when you buy as a demo customer it appears in their portal.',
  'shop.logo': 'A logo with its variants, colours and a short guide, ready in two weeks.',
  'shop.audit': 'Speed, accessibility and search checked page by page, with a list of fixes.',
  'shop.coffee': 'Single-origin beans from our roaster friends, by the kilogram.',
  'shop.guide': 'The printed style guide, bound, with every colour swatch. Styled through the button’s CSS properties.',
  'shop.abroad': 'For clients abroad',
  'shop.workshop': 'A remote brand workshop, invoiced in euro.',
  'shop.licence': 'A logo licence for Japan, in yen: a currency without decimals.',
  'shop.thanks': 'Thank you! Your payment went through. Invoice',
  'shop.viewInvoice': 'View the invoice',
  'shop.notPaid': 'The payment was not completed; nothing was charged.',
  'shop.declined': 'Payment declined: nothing was charged. Try again?',
  'shop.cancelled': 'Payment cancelled: nothing was charged. Try again?',
  'shop.tryAgain': 'Try again',
  'account.title': 'Billing details',
  'account.lead': 'What goes on your invoices. Changes are saved to the invoicing service through the BFF.',
  'account.pageTitle': 'Account · invoicekit demo',
  'account.signedInAs': 'Signed in as',
  'account.saved': 'Saved. New invoices to {name} will use these details.',
  'account.serviceFailed': 'The invoicing service could not save the details. Try again in a moment.',
  'wiring.pageTitle': 'How it works · invoicekit demo',
  'wiring.title': 'How it is wired',
  'wiring.lead': 'Three parts, each where it belongs. The secret API token stays on your server.',
  'wiring.browser': 'Your page',
  'wiring.browserText': 'Custom elements: no framework needed, themed with CSS.',
  'wiring.backend': 'Your backend',
  'wiring.backendText': 'Mounts the BFF, holds the API token and mints portal tokens after its own login.',
  'wiring.service': 'Invoicing service',
  'wiring.serviceText': 'The hosted service, or this embedded one: invoices, payments, PDFs, e-mail.',
  'wiring.step1': '1. Mount the BFF and mint portal tokens',
  'wiring.step1Text': 'In your server, next to your own login. The portal token names one customer and expires.',
  'wiring.step2': '2. Paste the tags',
  'wiring.step2Text': 'One script, then the elements where you want them.',
  'wiring.step3': '3. Or sell without a backend',
  'wiring.step3Text': 'A pay button can talk to the service’s public product widget directly.',
  'wiring.more': 'The README and docs/ cover every attribute, event, theming property and option.',
} as const;

export type MessageKey = keyof typeof en;

const pl: Record<MessageKey, string> = {
  'home.pageTitle': 'Demo Studio · demo invoicekit',
  'home.description': 'Sklep, portal klienta i strona konta Demo Studio, zbudowane z elementów invoicekit na wbudowanym serwisie fakturowym.',
  'shop.pageTitle': 'Sklep · demo invoicekit',
  'shop.description': 'Przyciski zakupu projektów, towarów i subskrypcji w trzech walutach: zapłać na testowej stronie płatności i odbierz fakturę e-mailem.',
  'portal.pageTitle': 'Portal klienta · demo invoicekit',
  'portal.description': 'Faktury klienta z filtrami, wyszukiwaniem, PDF i płatnością, należności w każdej walucie oraz dane do faktury.',
  'account.description': 'Klient sam prowadzi swoje dane do faktury: numery podatkowe, adresy i konta bankowe, sprawdzane tak, jak wymaga tego faktura.',
  'wiring.description': 'Jak połączony jest invoicekit: elementy na Twojej stronie, backend-for-frontend na Twoim serwerze i serwis fakturowy.',
  'nav.label': 'Strony demo',
  'nav.skip': 'Przejdź do treści',
  'nav.home': 'Przegląd',
  'nav.shop': 'Sklep',
  'nav.portal': 'Portal klienta',
  'nav.account': 'Konto',
  'nav.wiring': 'Jak to działa',
  'nav.outbox': 'Skrzynka nadawcza',
  'nav.language': 'Język',
  'nav.demo': 'Demo',
  'footer.text': 'Demo Studio to zmyślona firma. Wszystko na tych stronach działa na wbudowanym serwisie fakturowym na tym komputerze.',
  'home.title': 'Fakturowanie wprost na Twoich stronach',
  'home.lead': 'Demo Studio sprzedaje projekty, towary i subskrypcje. Jego sklep, portal klienta i strona konta są zbudowane z trzech elementów invoicekit, małego backendu dla frontendu i serwisu fakturowego, wszystko na tym komputerze.',
  'home.shop.title': 'Sklep',
  'home.shop.text': 'Przyciski płatności dla produktów w trzech walutach, z własnym stylem i w ciemnej sekcji. Kup coś: zapłacisz na testowej stronie płatności, wrócisz do sklepu, a faktura zostanie wystawiona i wysłana e-mailem.',
  'home.portal.title': 'Portal klienta',
  'home.portal.text': 'Ile zalogowany klient jest winien w każdej walucie, jego faktury z filtrami, wyszukiwaniem, stronicowaniem, PDF i płatnością oraz jego dane do faktur. Przełącz klienta: każdy widzi tylko swoje.',
  'home.account.title': 'Konto',
  'home.account.text': 'Klient sam prowadzi swoje dane do faktur: NIP, adresy i konta bankowe są sprawdzane tak, jak wymaga tego faktura.',
  'home.wiring.title': 'Jak to działa',
  'home.wiring.text': 'Kilka linii, których backend potrzebuje do wydania tokenu portalu, i znaczniki do wklejenia na stronę.',
  'home.outbox.title': 'Skrzynka nadawcza',
  'home.outbox.text': 'Tu trafiają e-maile demo zamiast do odbiorców: każda faktura wysłana kupującemu.',
  'home.open': 'Otwórz',
  'home.try': 'Wypróbuj',
  'home.step1': 'Kup coś w sklepie i zapłać na testowej stronie płatności.',
  'home.step2': 'Otwórz portal klienta: nowa faktura jest na liście jako opłacona.',
  'home.step3': 'Przeczytaj e-mail z fakturą w skrzynce nadawczej.',
  'portal.title': 'Twoje konto',
  'portal.lead': 'Zalogowano przez logowanie sklepu. Backend sklepu daje stronie krótkotrwały token portalu; elementy nigdy nie widzą tokenu API.',
  'portal.viewAs': 'Widok jako',
  'portal.owed': 'Do zapłaty',
  'portal.outstanding': 'Nieopłacone',
  'portal.overdue': 'Po terminie',
  'portal.nothingOwed': 'Nic do zapłaty. Dziękujemy!',
  'portal.invoices': 'Faktury',
  'portal.details': 'Dane do faktur',
  'portal.detailsLead': 'To, co znajdzie się na kolejnych fakturach.',
  'portal.paid': 'Płatność przyjęta. Dziękujemy!',
  'portal.notPaid': 'Płatność nie została zakończona.',
  'portal.signInFailed': 'Nie udało się zalogować w demo.',
  'shop.title': 'Sklep',
  'shop.buyingAs': 'Kupujesz jako',
  'shop.guest': 'Gość (bez konta)',
  'shop.lead': 'Każda cena pochodzi z serwisu fakturowego. Zapłać na testowej stronie płatności: faktura zostanie wystawiona i wysłana e-mailem, a gdy kupujesz jako klient demo, pojawi się w jego portalu.',
  'shop.logo': 'Logo z wariantami, kolorami i krótkim przewodnikiem, gotowe w dwa tygodnie.',
  'shop.audit': 'Szybkość, dostępność i wyszukiwarki sprawdzone strona po stronie, z listą poprawek.',
  'shop.coffee': 'Kawa z jednego źródła od zaprzyjaźnionej palarni, na kilogramy.',
  'shop.guide': 'Drukowany przewodnik stylu, oprawiony, ze wszystkimi próbkami kolorów. Wygląd przycisku ustawiony przez jego zmienne CSS.',
  'shop.abroad': 'Dla klientów z zagranicy',
  'shop.workshop': 'Zdalne warsztaty marki, fakturowane w euro.',
  'shop.licence': 'Licencja na logo w Japonii, w jenach: walucie bez groszy.',
  'shop.thanks': 'Dziękujemy! Płatność przyjęta. Faktura',
  'shop.viewInvoice': 'Zobacz fakturę',
  'shop.notPaid': 'Płatność nie została zakończona; nic nie pobrano.',
  'shop.declined': 'Płatność odrzucona: nic nie pobrano. Spróbować ponownie?',
  'shop.cancelled': 'Płatność anulowana: nic nie pobrano. Spróbować ponownie?',
  'shop.tryAgain': 'Spróbuj ponownie',
  'account.title': 'Dane do faktur',
  'account.lead': 'To, co znajdzie się na Twoich fakturach. Zmiany są zapisywane w serwisie fakturowym przez BFF.',
  'account.pageTitle': 'Konto · demo invoicekit',
  'account.signedInAs': 'Zalogowano jako',
  'account.saved': 'Zapisano. Nowe faktury dla {name} będą miały te dane.',
  'account.serviceFailed': 'Serwis fakturowy nie zapisał danych. Spróbuj ponownie za chwilę.',
  'wiring.pageTitle': 'Jak to działa · demo invoicekit',
  'wiring.title': 'Jak to jest połączone',
  'wiring.lead': 'Trzy części, każda na swoim miejscu. Tajny token API zostaje na Twoim serwerze.',
  'wiring.browser': 'Twoja strona',
  'wiring.browserText': 'Elementy niestandardowe: bez frameworka, stylowane przez CSS.',
  'wiring.backend': 'Twój backend',
  'wiring.backendText': 'Montuje BFF, przechowuje token API i po własnym logowaniu wydaje tokeny portalu.',
  'wiring.service': 'Serwis fakturowy',
  'wiring.serviceText': 'Serwis w chmurze lub ten wbudowany: faktury, płatności, PDF, e-mail.',
  'wiring.step1': '1. Zamontuj BFF i wydawaj tokeny portalu',
  'wiring.step1Text': 'Na Twoim serwerze, obok własnego logowania. Token portalu wskazuje jednego klienta i wygasa.',
  'wiring.step2': '2. Wklej znaczniki',
  'wiring.step2Text': 'Jeden skrypt, potem elementy tam, gdzie chcesz.',
  'wiring.step3': '3. Albo sprzedawaj bez backendu',
  'wiring.step3Text': 'Przycisk płatności może rozmawiać bezpośrednio z publicznym widżetem produktu w serwisie.',
  'wiring.more': 'README i docs/ opisują każdy atrybut, zdarzenie, zmienną stylu i opcję.',
};

export const catalogs: Record<Language, Record<MessageKey, string>> = { en, pl };

export function currentLanguage(): Language {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored === 'en' || stored === 'pl') return stored;
  return navigator.language.toLowerCase().startsWith('pl') ? 'pl' : 'en';
}

export function t(key: MessageKey): string {
  return catalogs[currentLanguage()][key];
}

/** Puts the page, its text and every element on it into one language. */
export function applyLanguage(language: Language = currentLanguage()): void {
  localStorage.setItem(STORAGE_KEY, language);
  document.documentElement.lang = language;
  for (const node of document.querySelectorAll<HTMLElement>('[data-i18n]')) {
    node.textContent = catalogs[language][node.dataset.i18n as MessageKey] ?? node.textContent;
  }
  // The page's description for search engines and link previews, in the page's language.
  for (const node of document.querySelectorAll<HTMLMetaElement>('meta[data-i18n-content]')) {
    node.content = catalogs[language][node.dataset.i18nContent as MessageKey] ?? node.content;
  }
  for (const node of document.querySelectorAll<HTMLElement>('[data-i18n-label]')) {
    node.setAttribute('aria-label', catalogs[language][node.dataset.i18nLabel as MessageKey] ?? '');
  }
  for (const element of document.querySelectorAll(ELEMENTS)) element.setAttribute('locale', language);
  document.dispatchEvent(new CustomEvent('demo-language', { detail: language }));
}
