/**
 * undici's parts that the HTTP core uses, behind one module that http.ts loads on the first request.
 * Named ES exports here (not a dynamic import of the CommonJS package itself) keep the names intact when
 * the program is bundled.
 */
export { Agent, request } from 'undici';
