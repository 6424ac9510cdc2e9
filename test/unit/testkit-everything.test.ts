// server-everything over Streamable HTTP says "listening on port" even when its port is taken (then exits): a
// port another server holds must not be mistaken for it (clean-clone run P: every `evh` call reached another
// test file's server and got its 404).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEverythingHttp } from '../../testkit/everything-server';

describe('startEverythingHttp', () => {
  let other: Server;
  beforeAll(async () => {
    other = createServer((_req, res) => res.writeHead(404).end('not here'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => other.close(() => resolve())));

  it('moves to a fresh port when the one it was given is held by another server', async () => {
    const taken = (other.address() as AddressInfo).port;
    const everything = await startEverythingHttp({ port: taken });
    try {
      expect(everything.url).not.toContain(`:${taken}/`);
      const res = await fetch(everything.url);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('No valid session ID');
    } finally {
      await everything.end();
    }
  }, 30_000);
});
