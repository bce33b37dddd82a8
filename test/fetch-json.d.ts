/**
 * Tests read the many JSON bodies they assert on with `await res.json()`. Node's fetch types
 * answer `Promise<unknown>` there (the DOM's answer `Promise<any>`), which would need a cast per
 * read; for the tests alone, the DOM's answer. Production code keeps `unknown` and validates.
 */
declare global {
  interface Response {
    json(): Promise<any>;
  }
}

export {};
