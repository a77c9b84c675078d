import { defineClientSuite } from './helpers/client-suite.js';

defineClientSuite('json');
