// How a tool activity's final failure reads: a cancel goes on to the workflow; a call that may have acted says so.
import {
  ActivityFailure,
  ApplicationFailure,
  CancelledFailure,
  RetryState,
  TimeoutFailure,
  TimeoutType,
} from '@temporalio/common';
import { failSoft, toolError } from '../../workflows/failures';
import type { ToolSpec } from '../../core/types';
import { book } from '../helpers/conversation-unit';

const failed = (cause: Error) =>
  new ActivityFailure('activity failed', 'Book', '1', RetryState.TIMEOUT, 'worker', cause);
const timedOut = () => failed(new TimeoutFailure('activity Heartbeat timeout', undefined, TimeoutType.HEARTBEAT));

describe('tool failures', () => {
  it('passes a cancellation on to the workflow, from a tool and from a model call', async () => {
    const cancelled = failed(new CancelledFailure('Cancelled by the user.'));
    expect(() => toolError(cancelled, book)).toThrow(cancelled);
    await expect(failSoft(() => Promise.reject(cancelled))).rejects.toBe(cancelled);
  });

  it('says a state-changing native tool that timed out (its worker died, say, while being cancelled) may have run', () => {
    expect(toolError(timedOut(), { ...book, readOnly: false })).toEqual({
      status: 'tool_error',
      error:
        'Book did not report back (activity Heartbeat timeout); it may or may not have run. Check before trying again.',
    });
    // A read-only tool changed nothing, and a tool's own error is just that.
    expect(toolError(timedOut(), { ...book, readOnly: true })).toEqual({
      status: 'tool_error',
      error: 'activity Heartbeat timeout',
    });
    expect(toolError(failed(ApplicationFailure.create({ message: 'no such employee' })), book)).toEqual({
      status: 'tool_error',
      error: 'no such employee',
    });
  });

  it('says a non-idempotent MCP call that failed for good may have run', () => {
    const remote: ToolSpec = {
      ...book,
      kind: 'mcp',
      mcp: { server: 'ledger', tool: 'pay', idempotent: false, timeoutMs: 1000 },
    };
    expect(toolError(timedOut(), remote)).toMatchObject({
      error: expect.stringMatching(/^The call to ledger\/pay was sent, then lost .*may or may not have run/),
    });
  });
});
