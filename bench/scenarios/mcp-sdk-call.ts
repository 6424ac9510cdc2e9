// b: the bare MCP SDK call over a stdio session connected beforehand: the transport's own cost, the lower bound
// for any way of calling fx.
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { sdkConvert } from '../fx';
import type { CallScenario } from '../scenario';
import { timeIt } from '../stats';

export function sdkCall(connected: McpClient): CallScenario {
  return {
    key: 'b',
    name: 'b  SDK callTool, connected session',
    description:
      'MCP SDK Client.callTool over a stdio session connected beforehand (no validation layer, no Temporal).',
    sampler: { samples: [], sample: () => timeIt(() => sdkConvert(connected)) },
  };
}
