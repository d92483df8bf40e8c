// The API key goes only where it was checked: the same origin gets it, a key from before
// keys were tied gets tied to the origin in use, a moved address gets nothing unasked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keyBinding, keyMayGo } from '../../../src/core/account/keyBinding';

test('same origin: sent; path and query do not matter, the port does', () => {
  assert.deepEqual(keyBinding('https://api.example.com', 'https://api.example.com/api/v1?x=1'), { kind: 'same', origin: 'https://api.example.com' });
  assert.deepEqual(keyBinding('https://api.example.com', 'https://api.example.com:8443/api'), { kind: 'moved', from: 'https://api.example.com', to: 'https://api.example.com:8443' });
  assert.equal(keyMayGo('https://api.example.com', 'https://api.example.com/'), true);
});

test('a moved address, or another scheme, never gets the key unasked', () => {
  assert.deepEqual(keyBinding('https://eu.example.com', 'https://us.example.com/api'), { kind: 'moved', from: 'https://eu.example.com', to: 'https://us.example.com' });
  assert.equal(keyMayGo('https://api.example.com', 'http://api.example.com/'), false, 'not over plain http');
  assert.equal(keyMayGo('https://api.example.com', 'https://api.example.com.evil.test/'), false);
});

test('a key from before keys were tied: tied to the origin in use', () => {
  assert.deepEqual(keyBinding(undefined, 'https://api.example.com/api/v1'), { kind: 'unbound', origin: 'https://api.example.com' });
  assert.equal(keyMayGo(undefined, 'https://api.example.com/'), true);
});
