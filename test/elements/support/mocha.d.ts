// The globals @web/test-runner's Mocha gives browser tests.
declare function describe(title: string, body: () => void): void;
declare function it(title: string, body: () => void | Promise<void>): void;
declare function beforeEach(body: () => void | Promise<void>): void;
declare function afterEach(body: () => void | Promise<void>): void;
declare function before(body: () => void | Promise<void>): void;
