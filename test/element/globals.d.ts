// Mocha's globals as web-test-runner provides them in the browser (no @types/mocha installed).
declare function describe(title: string, body: () => void): void;
declare function it(title: string, body: () => void | Promise<void>): void;
declare function beforeEach(body: () => void | Promise<void>): void;
declare function afterEach(body: () => void | Promise<void>): void;
declare function beforeEach(body: () => void | Promise<void>): void;
declare function before(body: () => void | Promise<void>): void;
declare function after(body: () => void | Promise<void>): void;
declare namespace describe {
  function skip(title: string, body: () => void): void;
}
