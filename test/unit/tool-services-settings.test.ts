// The tools' outside services come from the worker's settings, parsed once from the environment:
// TRAIN_SERVICE_URL, STRIPE_API_KEY and STRIPE_API_BASE end up on WorkerSettings.toolServices.
import { readWorkerSettings } from '../../worker/worker-settings';

const read = (env: Record<string, string>) => readWorkerSettings(env as NodeJS.ProcessEnv).toolServices;

describe('tool services in the worker settings', () => {
  it('defaults to the local train service and no Stripe (mock invoices)', () => {
    expect(read({})).toEqual({ trainServiceUrl: 'http://127.0.0.1:3802' });
    // Blank is unset, as for every other setting.
    expect(read({ TRAIN_SERVICE_URL: '', STRIPE_API_KEY: '' })).toEqual({ trainServiceUrl: 'http://127.0.0.1:3802' });
  });

  it('takes the train service URL and the Stripe key, with Stripe’s own API unless STRIPE_API_BASE says otherwise', () => {
    expect(read({ TRAIN_SERVICE_URL: 'https://trains.example.com/api', STRIPE_API_KEY: 'sk_test_1' })).toEqual({
      trainServiceUrl: 'https://trains.example.com/api',
      stripe: { apiKey: 'sk_test_1', apiBase: 'https://api.stripe.com' },
    });
    expect(read({ STRIPE_API_KEY: 'sk_test_1', STRIPE_API_BASE: 'http://localhost:12111' }).stripe).toEqual({
      apiKey: 'sk_test_1',
      apiBase: 'http://localhost:12111',
    });
  });

  it('ignores STRIPE_API_BASE without a key: no key, no Stripe', () => {
    expect(read({ STRIPE_API_BASE: 'http://localhost:12111' }).stripe).toBeUndefined();
  });

  it('refuses a URL that is not http(s), naming the variable', () => {
    expect(() => read({ TRAIN_SERVICE_URL: 'not a url' })).toThrow(/TRAIN_SERVICE_URL must be an http\(s\) URL/);
    expect(() => read({ TRAIN_SERVICE_URL: 'localhost:3802' })).toThrow(/TRAIN_SERVICE_URL must be an http\(s\) URL/);
    expect(() => read({ STRIPE_API_KEY: 'sk_test_1', STRIPE_API_BASE: 'ftp://stripe.example.com' })).toThrow(
      /STRIPE_API_BASE must be an http\(s\) URL/,
    );
    // Checked even without a key: a typo is reported at start-up, not when a key is added later.
    expect(() => read({ STRIPE_API_BASE: 'stripe-mock' })).toThrow(/^Bad configuration: STRIPE_API_BASE must be/);
  });
});
