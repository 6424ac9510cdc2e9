// An OTLP/HTTP receiver for tests (JSON encoding, as @opentelemetry/exporter-trace-otlp-http sends it): the spans
// every process exporting to it sent, with the service that sent each.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, string | number>;
}

type OtlpValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type OtlpAttribute = { key: string; value: OtlpValue };

/** `bodies`: every export request as sent, events and statuses included (to look for what must not be there). */
export async function startReceiver(): Promise<{
  url: string;
  spans: ReceivedSpan[];
  bodies: string[];
  close(): Promise<void>;
}> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const value = (v: OtlpValue) =>
    v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.doubleValue ?? String(v.boolValue)));
  const attrs = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map((a) => [a.key, value(a.value)]));
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type']?.startsWith('application/json')) {
        bodies.push(body);
        const data = JSON.parse(body) as {
          resourceSpans: {
            resource: { attributes: OtlpAttribute[] };
            scopeSpans: { spans: (Omit<ReceivedSpan, 'attributes' | 'service'> & { attributes: OtlpAttribute[] })[] }[];
          }[];
        };
        for (const rs of data.resourceSpans) {
          const service = String(attrs(rs.resource.attributes)['service.name']);
          for (const ss of rs.scopeSpans)
            for (const s of ss.spans)
              spans.push({
                service,
                name: s.name,
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId ?? '',
                attributes: attrs(s.attributes),
              });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
