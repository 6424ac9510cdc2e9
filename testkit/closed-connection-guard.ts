// The SDK's gRPC retry interceptor retries a failed call on a timer (up to seconds later), and closing the connection
// does not clear those timers: a retry that fires after a test file's teardown closed its connection throws "Channel
// has been shut down" inside the timer, where nothing can catch it, and Jest fails whichever file that worker runs
// next (a file whose tests all passed). This guard, inside the retry interceptor, ends every call made after its
// environment began tearing down with CANCELLED instead: the retry reaches the caller, if any still waits, as an error.
import * as grpc from '@grpc/grpc-js';
import {
  defaultGrpcRetryOptions,
  makeGrpcRetryInterceptor,
  type ConnectionOptions,
  type ConnectionPlugin,
} from '@temporalio/client';

export interface ClosedConnectionGuard {
  plugin: ConnectionPlugin;
  /** From now on, calls of the connection end at once (CANCELLED) instead of reaching its channel. */
  close(): void;
}

export function closedConnectionGuard(): ClosedConnectionGuard {
  let closed = false;
  const guard: grpc.Interceptor = (options, nextCall) =>
    new grpc.InterceptingCall(closed ? cancelledCall() : nextCall(options));
  return {
    plugin: {
      name: 'closed-connection-guard',
      configureConnection: (options: ConnectionOptions): ConnectionOptions => ({
        ...options,
        // The SDK's default (the retry interceptor alone), with the guard inside it, so a retry meets the guard.
        interceptors: [...(options.interceptors ?? [makeGrpcRetryInterceptor(defaultGrpcRetryOptions())]), guard],
      }),
    },
    close: () => {
      closed = true;
    },
  };
}

/** A call that never reaches a channel: started, it ends with CANCELLED (on the next turn, as a real call would). */
function cancelledCall(): ConstructorParameters<typeof grpc.InterceptingCall>[0] {
  const status = { code: grpc.status.CANCELLED, details: 'the test environment was torn down' };
  return {
    start: (_metadata: grpc.Metadata, listener?: Partial<grpc.InterceptingListener>) => {
      setImmediate(() => listener?.onReceiveStatus?.({ ...status, metadata: new grpc.Metadata() }));
    },
    cancelWithStatus: () => undefined,
    getPeer: () => 'closed',
    sendMessageWithContext: () => undefined,
    sendMessage: () => undefined,
    startRead: () => undefined,
    halfClose: () => undefined,
    getAuthContext: () => null,
  };
}
