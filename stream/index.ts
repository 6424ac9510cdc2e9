// The stream bus a process uses: Redis when REDIS_URL names one (API and worker apart), else in memory (together).
import type { StreamBus } from './bus';
import { MemoryStreamBus } from './memory-bus';

export { attemptKey, type AttemptId, type StreamBus, type StreamChunk } from './bus';
export { MemoryStreamBus, type MemoryStreamBusOptions } from './memory-bus';
export { replyStream, type ReplyStream, type StreamTarget } from './reply-stream';

export function createStreamBus(redisUrl?: string): StreamBus {
  if (!redisUrl) return new MemoryStreamBus();
  // ioredis is loaded only for a Redis bus (stream/redis-bus.ts): the in-memory bus's processes need not pay for it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { RedisStreamBus } = require('./redis-bus') as typeof import('./redis-bus');
  return new RedisStreamBus(redisUrl);
}
