/** The library: a typed client for the XFlow swap export API, its errors and types. The sandbox is `swapx/sandbox`. */
export { createClient, SwapxClient, type ClientOptions, type SwapWindowQuery } from './api/client.js';
export type { Credentials } from './api/credentials.js';
export * from './api/errors.js';
export * from './api/types.js';
export { PATHS } from './api/paths.js';
export type { AttemptLog, HttpCoreOptions } from './api/http.js';
export { CONCURRENCY, DEFAULT_BASE_URL, RETRIES, TIMEOUT_MS, WINDOW_MS, type Bound } from './api/bounds.js';
