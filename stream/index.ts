// The stream bus a process uses: Redis when REDIS_URL names one (API and worker apart), else in memory (together).
import type { StreamBus } from './bus';
import { MemoryStreamBus } from './memory-bus';
import { RedisStreamBus } from './redis-bus';

export { attemptKey, type AttemptId, type StreamBus, type StreamChunk } from './bus';
export { MemoryStreamBus, type MemoryStreamBusOptions } from './memory-bus';
export { RedisStreamBus, type RedisStreamBusOptions } from './redis-bus';
export { replyStream, type ReplyStream, type StreamTarget } from './reply-stream';

export function createStreamBus(redisUrl?: string): StreamBus {
  return redisUrl ? new RedisStreamBus(redisUrl) : new MemoryStreamBus();
}
