// Tests for reading wp.sh's start output.
import { describe, expect, it } from 'vitest';
import { parseStartOutput } from './upstream.ts';

describe('parseStartOutput', () => {
  it.each([
    [
      'UPSTREAM_URL=http://127.0.0.1:8080/wp-json\nUPSTREAM_AUTH=admin:abc123\n',
      { url: 'http://127.0.0.1:8080/wp-json', auth: 'admin:abc123' },
    ],
    [
      'noise\r\n  UPSTREAM_AUTH=admin:x:y  \nUPSTREAM_URL=http://127.0.0.1:9/wp-json',
      { url: 'http://127.0.0.1:9/wp-json', auth: 'admin:x:y' },
    ],
  ])('reads the url and credentials from %j', (stdout, expected) => {
    expect(parseStartOutput(stdout)).toEqual(expected);
  });

  it.each(['', 'UPSTREAM_URL=http://x\n', 'UPSTREAM_AUTH=admin:pw\n'])(
    'fails with the output when a line is missing (%j)',
    (stdout) => {
      expect(() => parseStartOutput(stdout)).toThrow(/printed no UPSTREAM_URL/);
    },
  );
});
