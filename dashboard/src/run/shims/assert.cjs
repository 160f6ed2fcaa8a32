// node:assert for the router peers in the browser bundle: find-my-way only calls assert(value, message).
'use strict';
function assert(value, message) {
  if (!value) throw new Error(typeof message === 'string' ? message : 'assertion failed');
}
assert.ok = assert;
module.exports = assert;
