// The logger every entry point installs in the Temporal Runtime: at the configured level, secrets blanked.
import type { LogLevel, LogMetadata, Logger } from '@temporalio/common';
import { DefaultLogger } from '@temporalio/worker';
import type { SecretScrubber } from '../activities/secrets';

/** The SDK warns on every start that a tools-only worker (the train tools) polls no workflows: true by design. */
const TOOLS_ONLY_WARNING = 'No workflows registered';

class ProductLogger extends DefaultLogger {
  override log(level: LogLevel, message: string, meta?: LogMetadata): void {
    if (level === 'WARN' && message.startsWith(TOOLS_ONLY_WARNING)) return;
    super.log(level, message, meta);
  }
}

export function processLogger(secrets: SecretScrubber, level: LogLevel): Logger {
  return secrets.logger(new ProductLogger(level));
}
