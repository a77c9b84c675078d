import { afterAll, beforeAll } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { defineClientSuite } from './helpers/client-suite.js';
import { defineDocsExample } from './helpers/docs-example.js';

// One real service for every client test: both formats and the documented example.
let service: TestService | undefined;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.stop());

const running = () => service!;
defineClientSuite('json', running);
defineClientSuite('xml', running);
defineDocsExample(running);
