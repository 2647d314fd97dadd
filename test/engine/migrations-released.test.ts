// Migrations are forward-only: once released, a migration's text never changes (a database made
// by it would differ from one made by the edited text). Each released one is held by its hash; a
// new migration is appended, and its hash added here when it is released.
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { MIGRATIONS } from '../../src/local/store/migrations.js';

/** SHA-256 of each released migration's text, numbered as migrations.ts numbers them. */
const RELEASED: readonly string[] = [
  '093378282c9bf97066b07c2cf1a1ad224d1ba34bd4b4bab70ac5591a0b1cfed9', // 1
  'd64ae1e7fd1b2178c72de668ad5ff5448ae8549e9d01d10bb903cd447bb92d0a', // 2
  '6180c5f6d46b1efec18a0cf1d418a263851e6681ecb9b5e6841b422ab5c0b516', // 3
  '0086e6c9559a1466af8cf84f6d97c3a6c51b286092fbb1b565350b5cbab72e4f', // 4
  'b7571715bf4f978bcae825b6e6af6ee4080b97d7cb7f22c59dac5c6eb240667c', // 5
  '52534a5e667b352bc1c64559f370c05d70f32c2b33f92cebd4557fd715d945d2', // 6
  '489c79f7a32152707f802ad0fa805ece8368228c5c643a40975dbc1cef83b97d', // 7
  '4973b77a5005431c3cd141a407856f6dcb4d8213f290d1a4d6e021359aa68a1a', // 8
  '8369c0a81c87d999f42bb518512bcdfa9b6784b589535d57cb13771d3ec10b08', // 9
  '319df32f47cc1794869a493b83a0febe9f9d6aaaddb8ff65fae36be9aae5c99b', // 10
  'aa6f243dfef7e3c099b9266d1be320b3e8fa52026c7bbb5f80bd9dd1318d1383', // 11
  'b54e9e07bd4eebb3e0184f355aa306a378016c81657d7d4e72cc368a9f00ab05', // 12
  'ea2da5605bd11039310fbe640d4c90d72317015acfff51e1077ea745e9d64979', // 13
  'e31ec099d05950d1358ca45c7b2d55f4d16cfcc30876f74e6bbdb5345c6db7bf', // 14
  '75d58575f89078fff01e8c3155d489350ee94299b6b831bfdce78384ebebefea', // 15
];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

test('no released migration has changed, and none was removed', () => {
  expect(MIGRATIONS.length).toBeGreaterThanOrEqual(RELEASED.length);
  const changed = RELEASED.flatMap((hash, i) => (sha256(MIGRATIONS[i]) === hash ? [] : [`migration ${i + 1}`]));
  expect(changed, 'a released migration was edited: revert it and append a new one instead').toEqual([]);
});
