// A running tool's progress (the `tool_progress` events): a bar when the tool says how far it is of how much, its
// message or log line beside. Shown under the transcript while the tool runs; it goes with the tool's result.
import type { ToolProgress } from './api';

export function ToolProgressLine({ progress }: { progress: ToolProgress }) {
  const { tool, progress: done, total, message, level } = progress;
  const share = done !== undefined && total ? Math.min(100, Math.round((100 * done) / total)) : null;
  return (
    <div className="tool-progress" role="status" data-testid="tool-progress" data-tool={tool}>
      <span className="tool-name">{tool}</span>
      {done !== undefined && (
        <progress
          value={total ? done : undefined}
          max={total || undefined}
          aria-label={share !== null ? `${tool}: ${share}%` : `${tool}: working`}
        />
      )}
      <span className="tool-progress-text" data-testid="tool-progress-text">
        {share !== null ? `${done}/${total} (${share}%)` : done !== undefined ? String(done) : ''}
        {level ? ` [${level}]` : ''}
        {message ? ` ${message}` : ''}
      </span>
    </div>
  );
}
