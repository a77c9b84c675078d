/**
 * The rooms of the project and the layers of the service, declared once and checked transitively
 * (docs/decisions/service-layers.md, docs/decisions/enforced-rooms.md). `npm test` runs
 * `depcruise src` with this file, and test/architecture/layers.test.ts shows each rule firing.
 * Type-only imports count: TypeScript's imports are read before compilation.
 */

/** The folders of `src/` that are rooms, as path patterns. */
const room = {
  contract: '^src/contract/',
  kernel: '^src/kernel/',
  einvoice: '^src/einvoice/',
  api: '^src/api/',
  serverKit: '^src/server-kit/',
  service: '^src/service/',
  bff: '^src/bff/',
  elements: '^src/(elements|frameworks)/',
  widget: '^src/widget/',
  admin: '^src/admin/',
};

/** Each room and the rooms it may never reach, directly or through any chain of imports. */
const rooms = [
  { name: 'service', from: room.service, never: [room.bff, room.elements], why: 'The service knows no BFF and renders no elements: share through src/server-kit/.' },
  { name: 'bff', from: room.bff, never: [room.service], why: 'The BFF calls the service over HTTP through the client; it imports no service code.' },
  { name: 'elements', from: room.elements, never: [room.service, room.bff, room.serverKit, room.api], why: 'The elements run in browsers: they talk to the BFF, typed by src/contract/.' },
  { name: 'admin', from: room.admin, never: [room.service, room.bff, room.serverKit, room.api], why: "The back office runs in browsers: it calls the service's API through its session (src/admin/api.ts)." },
  { name: 'api', from: room.api, never: [room.service, room.bff, room.serverKit, room.elements], why: 'The client knows no server and no elements: only the kernel and the contract.' },
  { name: 'server-kit', from: room.serverKit, never: [room.service, room.bff, room.elements], why: 'The shared server kit imports neither server and renders nothing.' },
  { name: 'kernel', from: room.kernel, never: [room.api, room.service, room.bff, room.serverKit, room.elements, room.widget], why: 'The kernel imports only the wire contract (and packages).' },
  { name: 'einvoice', from: room.einvoice, never: [room.api, room.service, room.bff, room.serverKit, room.elements, room.widget, room.admin], why: 'The e-invoice mapping is pure: it imports only the kernel and the contract (and packages).' },
  { name: 'widget', from: room.widget, never: [room.api, room.service, room.bff, room.serverKit, room.elements, room.kernel], why: "The widget script runs alone in the shop's page: it carries nothing of ours." },
];

/**
 * The service's layers, top to bottom. A module may import its own layer and the layers below it,
 * never one above, and not through any chain of imports either. Every module of `src/service`
 * belongs to exactly one layer (test/architecture/layers.test.ts checks it).
 */
const layers = [
  {
    name: 'http',
    what: 'route groups, middleware, answers and pages; the composition root and the entries',
    path: [
      '^src/service/(app|http|routing|context|api-error|conditional|answer-cache|idempotency|auth|account-operations|integrations|health|login-guard|write-feed|openapi|server|index|seed)[.]ts$',
      '^src/service/(resources|public)/',
      // The seller's back office: its session, its dispatch to the API, its page.
      '^src/service/admin/',
      '^src/service/[^/]+/routes[.]ts$',
      '^src/service/payments/(notifications|settings|stripe|przelewy24)[.]ts$',
      '^src/service/documents/outbox[.]ts$',
      '^src/service/ksef/(double/|local[.]ts$)',
      // The stand-ins of NBP, VIES and the white list that the demo and the tests run.
      '^src/service/registries/',
      '^src/service/raw-answers[.]ts$',
    ],
  },
  {
    name: 'application',
    what: 'the flows every entry point calls: issue, settle, send, schedule',
    path: [
      '^src/service/application/',
      '^src/service/invoicing/(issue|recurring-scheduler)[.]ts$',
      '^src/service/payments/start[.]ts$',
      '^src/service/ksef/(sender|email)[.]ts$',
      '^src/service/documents/(mailer|email)[.]ts$',
      '^src/service/webhooks/deliveries[.]ts$',
    ],
  },
  {
    name: 'domain',
    what: 'invoicing, tax, KSeF documents, printed documents, payment providers’ shape',
    path: [
      '^src/service/invoicing/',
      '^src/service/ksef/',
      '^src/service/documents/',
      // An invoice's e-invoice as the service makes it (its route is in the http layer).
      '^src/service/einvoice/',
      '^src/service/payments/(provider|test-blik)[.]ts$',
      '^src/service/webhooks/addresses[.]ts$',
    ],
  },
  {
    name: 'data',
    what: 'the connection, the tables’ modules, and the plain pieces every layer shares',
    path: [
      '^src/service/(db|sql|store|accounts|account-cache|migrations|kept-reads|data-lock|pglite-buffers|pglite-cluster|account|domain-errors|passwords|xml|module-worker|outbound)[.]ts$',
      '^src/service/data/',
      '^src/service/secrets/',
    ],
  },
];

/** A layer's own patterns, less every pattern of the layers above it (which take precedence). */
function layerPaths(index) {
  return { path: layers[index].path, pathNot: layers.slice(0, index).flatMap((layer) => layer.path) };
}

/**
 * Imports that break the layers today, each listed by module (from → to). No other may appear;
 * the list only shrinks. See docs/decisions/service-layers.md.
 */
const layerExceptions = [
  // A webhook carries the API's answer for the record; the payment's presenter is in its route module.
  { from: 'src/service/webhooks/deliveries.ts', to: 'src/service/resources/payments.ts', why: 'presentPayment' },
];

/**
 * Modules outside the data layer that still write SQL: none, and it stays so. The layers test
 * finds SQL text in every module of src/service and checks it against the data layer and this list.
 */
const sqlOutsideData = [];

const pattern = (paths) => paths.map((path) => `(${path})`).join('|');
const exact = (file) => `^${file.replace(/[.]/g, '[.]')}$`;

function layerRules() {
  const rules = [];
  layers.forEach((lower, lowerIndex) => {
    const from = layerPaths(lowerIndex);
    const above = layers.slice(0, lowerIndex);
    if (above.length === 0) return;
    const to = pattern(above.flatMap((layer) => layer.path));
    const inLayer = (file) => new RegExp(pattern(from.path)).test(file) && !new RegExp(pattern(from.pathNot)).test(file);
    const excepted = [...new Set(layerExceptions.filter((exception) => inLayer(exception.from)).map((exception) => exception.from))];
    rules.push({
      name: `layer-${lower.name}`,
      comment: `The ${lower.name} layer (${lower.what}) imports nothing from the layers above it: ${above.map((layer) => layer.name).join(', ')}.`,
      severity: 'error',
      from: { path: from.path, pathNot: [...from.pathNot, ...excepted.map(exact)] },
      to: { path: to },
    });
    // A module with listed exceptions may make those imports and no other upward one.
    for (const file of excepted) {
      const allowed = layerExceptions.filter((exception) => exception.from === file);
      rules.push({
        name: `layer-${lower.name}`,
        comment: `Known exceptions of ${file}: ${allowed.map((exception) => `${exception.to} (${exception.why})`).join('; ')}.`,
        severity: 'error',
        from: { path: exact(file) },
        to: { path: to, pathNot: allowed.map((exception) => exact(exception.to)) },
      });
    }
    rules.push({
      name: `layer-${lower.name}-transitive`,
      comment: `No chain of imports leads from the ${lower.name} layer up to ${above.map((layer) => layer.name).join(', ')}.`,
      severity: 'error',
      from: { path: from.path, pathNot: [...from.pathNot, ...excepted.map(exact)] },
      to: { path: to, reachable: true },
    });
  });
  return rules;
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle in the service or the BFF, type-only imports included.',
      severity: 'error',
      from: { path: '^src/(service|bff)/' },
      to: { circular: true },
    },
    ...rooms.map(({ name, from, never, why }) => ({
      name: `room-${name}`,
      comment: why,
      severity: 'error',
      from: { path: from },
      to: { path: pattern(never), reachable: true },
    })),
    {
      name: 'room-contract',
      comment: 'The contract is plain TypeScript: it imports nothing but its own modules, no package either.',
      severity: 'error',
      from: { path: room.contract },
      to: { pathNot: room.contract },
    },
    {
      name: 'pages-and-providers-apart',
      comment: 'Pages and payment providers use the application layer, never each other.',
      severity: 'error',
      from: { path: '^src/service/public/' },
      to: { path: '^src/service/payments/(stripe|przelewy24)[.]ts$' },
    },
    {
      name: 'pages-and-providers-apart',
      comment: 'Pages and payment providers use the application layer, never each other.',
      severity: 'error',
      from: { path: '^src/service/payments/(stripe|przelewy24)[.]ts$' },
      to: { path: '^src/service/public/' },
    },
    ...layerRules(),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs'] },
  },
};

// For the layers test, which checks that every module has a layer and where SQL is written. Not
// enumerable: dependency-cruiser's schema takes no keys of ours.
Object.defineProperty(module.exports, 'layers', { value: layers, enumerable: false });
Object.defineProperty(module.exports, 'sqlOutsideData', { value: sqlOutsideData, enumerable: false });
