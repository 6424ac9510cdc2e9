// Tracing is on only with an OTLP endpoint (the standard variables), and OTEL_SDK_DISABLED=true wins.
import { startTracing, tracingEnabled } from '../../runtime/tracing';

describe('tracingEnabled', () => {
  it('is off with no endpoint, on with either OTLP endpoint variable', () => {
    expect(tracingEnabled({})).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
  });

  it('is off when OTEL_SDK_DISABLED=true, whatever the endpoint', () => {
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(
      false,
    );
  });

  it('startTracing does nothing without an endpoint', () => {
    expect(process.env.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(startTracing('unit')).toBeUndefined();
  });
});
