// Tests for reading wp.sh's start output.
import { describe, expect, it } from 'vitest';
import { parseStartOutput } from './upstream.ts';

const admin = 'WP_ADMIN_URL=http://127.0.0.1:8080/wp-admin/\nWP_LOGIN_PASSWORD=login1\n';

describe('parseStartOutput', () => {
  it.each([
    [
      `UPSTREAM_URL=http://127.0.0.1:8080/wp-json\nUPSTREAM_AUTH=editor:abc123\n${admin}`,
      {
        url: 'http://127.0.0.1:8080/wp-json',
        auth: 'editor:abc123',
        adminUrl: 'http://127.0.0.1:8080/wp-admin/',
        loginPassword: 'login1',
      },
    ],
    [
      `noise\r\n  UPSTREAM_AUTH=editor:x:y  \n${admin}UPSTREAM_URL=http://127.0.0.1:9/wp-json\nWEBHOOK_URL=http://g/calendar-gateway/v1/notify\nWEBHOOK_SECRET=s3cret`,
      {
        url: 'http://127.0.0.1:9/wp-json',
        auth: 'editor:x:y',
        adminUrl: 'http://127.0.0.1:8080/wp-admin/',
        loginPassword: 'login1',
        webhook: { url: 'http://g/calendar-gateway/v1/notify', secret: 's3cret' },
      },
    ],
  ])('reads the url and credentials from %j', (stdout, expected) => {
    expect(parseStartOutput(stdout)).toEqual(expected);
  });

  it.each([
    '',
    'UPSTREAM_URL=http://x\n',
    'UPSTREAM_AUTH=editor:pw\n',
    'UPSTREAM_URL=http://x\nUPSTREAM_AUTH=editor:pw\n',
    `UPSTREAM_URL=http://x\nUPSTREAM_AUTH=editor:pw\nWP_ADMIN_URL=http://x/wp-admin/\n`,
  ])('fails with the output when a line is missing (%j)', (stdout) => {
    expect(() => parseStartOutput(stdout)).toThrow(/printed no UPSTREAM_URL/);
  });
});
