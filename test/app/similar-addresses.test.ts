// An address that finds no message, and the addresses a typo away from it (the outbox's hint).
import { describe, expect, it } from 'vitest';
import { similarAddresses, similarAddressWords } from '../../src/app/similarAddresses.js';

describe('similar addresses', () => {
  const seen = [
    'marta.lopez@exmaple.com',
    'marta.lopes@example.com',
    'marta.lopez@example.org',
    'martin@example.com',
    'marta.lopez@exmaple.com',
    '+14155550100',
  ];
  it('are a few edits away, case aside, nearest first, each once', () => {
    expect(similarAddresses('Marta.Lopez@Example.com', seen)).toEqual([
      'marta.lopes@example.com',
      'marta.lopez@exmaple.com',
    ]);
    expect(similarAddresses('+14155550199', seen)).toEqual(['+14155550100']);
    expect(similarAddresses('nobody@example.net', seen)).toEqual([]);
    expect(
      similarAddresses(
        'a@b.c',
        Array.from({ length: 10 }, (_, i) => `a${i}@b.c`),
      ),
    ).toHaveLength(3);
  });
  it('are said in one line, or not at all', () => {
    expect(similarAddressWords('x@example.com', ['x@exmaple.com', 'y@example.com'])).toBe(
      'No message to x@example.com. Messages went to similar addresses: x@exmaple.com, y@example.com.',
    );
    expect(similarAddressWords('x@example.com', [])).toBeUndefined();
  });
});
