export { ANY_METHOD, Router, type Lookup, type Match, type Params, type RouterOptions } from './router.js';
export { RouterError } from './errors.js';
