/**
 * For the tests alone, `res.json()` answers `any` as in the DOM's types rather than Node's `unknown`, which would need
 * a cast per asserted body. Production code keeps `unknown` and validates.
 */
declare global {
  interface Response {
    json(): Promise<any>;
  }
}

export {};
