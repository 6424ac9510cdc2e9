// Ports for a process a test starts with several of them (npm start's dev server, its UI and the API). Asked of the
// kernel one at a time, each released before the next, two can come back the same (seen: TEMPORAL_PORT and API_PORT
// both 39121, and npm start moved the API elsewhere); held open together, they cannot.
import net from 'node:net';

export async function distinctFreePorts(count: number): Promise<number[]> {
  const opened = await Promise.allSettled(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const servers = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  const failed = opened.find((o) => o.status === 'rejected');
  if (failed) throw failed.reason;
  return ports;
}
