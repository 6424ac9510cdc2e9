// Files in the composer: the attach button (a paperclip, with its name for screen readers), dropping files onto the
// composer, and the files a message will carry — each uploading at once with its progress, removable, and refused in
// words beside its name (over the size limit, a type the readers refuse, a zip bomb…). Send waits while one uploads.
import { useEffect, useReducer, useRef, useState, type DragEvent } from 'react';
import { api, ApiError, messageOf, uploadFile } from './api';
import {
  MAX_FILES,
  limitFromRefusal,
  limitWords,
  reduceFiles,
  refusalBefore,
  summary,
  type PendingFile,
} from './attach-state';
import { formatBytes } from '../core/blobs';
import './attach.css';

/** The per-file limit as the API stated it (GET /api/files/limits, or a 413 answer), shared by every conversation. */
let learnedLimit: number | null = null;
let nextKey = 0;

/** The files of the message being written, for one conversation (they are held by it once uploaded). */
export function useAttachments(conversationId: string) {
  const [files, dispatch] = useReducer(reduceFiles, []);
  const [limit, setLimit] = useState(learnedLimit);
  const current = useRef(files);
  current.current = files;
  const aborts = useRef(new Map<number, () => void>());

  // The limit, asked once: a file over it is refused before a byte is sent. Without an answer, the first 413 says it.
  useEffect(() => {
    if (learnedLimit !== null) return;
    let live = true;
    api.fileLimits().then(
      (limits) => {
        learnedLimit = limits.fileMaxBytes;
        if (live) setLimit(learnedLimit);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  // Another conversation, or the view closing: uploads still running are stopped and the list starts empty.
  useEffect(() => {
    const running = aborts.current;
    return () => {
      for (const abort of running.values()) abort();
      running.clear();
      dispatch({ type: 'clear' });
    };
  }, [conversationId]);

  function add(list: Iterable<File>) {
    let counted = current.current.filter((f) => f.status !== 'refused').length;
    for (const file of list) {
      const key = ++nextKey;
      const refused = refusalBefore(file, counted, learnedLimit);
      dispatch({ type: 'add', key, name: file.name, size: file.size, ...(refused ? { refused } : {}) });
      if (refused) continue;
      counted++;
      const upload = uploadFile(file, conversationId, (sent) => dispatch({ type: 'progress', key, sent }));
      aborts.current.set(key, upload.abort);
      upload.done.then(
        (ref) => dispatch({ type: 'ready', key, ref }),
        (err: unknown) => {
          const stated = err instanceof ApiError && err.status === 413 ? limitFromRefusal(err.message) : null;
          if (stated) setLimit((learnedLimit = stated));
          dispatch({ type: 'refused', key, error: messageOf(err) });
        },
      );
      void upload.done.catch(() => {}).finally(() => aborts.current.delete(key));
    }
  }

  function remove(key: number) {
    aborts.current.get(key)?.();
    dispatch({ type: 'remove', key });
  }

  return { files, limit, add, remove, clear: () => dispatch({ type: 'clear' }), ...summary(files) };
}

/** Drag-and-drop onto an element: whether files are over it now, and the handlers that take them when dropped. */
export function useDropZone(onFiles: (files: File[]) => void, enabled: boolean) {
  const [dragging, setDragging] = useState(false);
  // dragenter and dragleave fire for every child crossed: count them so the zone stays lit until the files leave.
  const depth = useRef(0);
  const carriesFiles = (e: DragEvent) => enabled && Array.from(e.dataTransfer.types).includes('Files');
  // A file dropped beside the zone would otherwise be opened by the browser in place of the chat.
  useEffect(() => {
    if (!enabled) return;
    const refuse = (e: globalThis.DragEvent) => {
      if (e.defaultPrevented || !e.dataTransfer || !Array.from(e.dataTransfer.types).includes('Files')) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'none';
    };
    window.addEventListener('dragover', refuse);
    window.addEventListener('drop', refuse);
    return () => {
      window.removeEventListener('dragover', refuse);
      window.removeEventListener('drop', refuse);
    };
  }, [enabled]);
  return {
    dragging,
    handlers: {
      onDragEnter(e: DragEvent) {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        depth.current++;
        setDragging(true);
      },
      onDragOver(e: DragEvent) {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      },
      onDragLeave(e: DragEvent) {
        if (!carriesFiles(e)) return;
        if (--depth.current <= 0) {
          depth.current = 0;
          setDragging(false);
        }
      },
      onDrop(e: DragEvent) {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        depth.current = 0;
        setDragging(false);
        onFiles(Array.from(e.dataTransfer.files));
      },
    },
  };
}

/** The paperclip: a button that opens the file picker (several files at once). */
export function AttachButton({
  onFiles,
  disabled,
  limit,
}: {
  onFiles(files: File[]): void;
  disabled: boolean;
  limit: number | null;
}) {
  const input = useRef<HTMLInputElement>(null);
  const each = limit ? `, each up to ${limitWords(limit)}` : '';
  return (
    <>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="attach-input"
        onChange={(e) => {
          onFiles(Array.from(e.target.files ?? []));
          e.target.value = ''; // the same file again is a new choice
        }}
      />
      <button
        type="button"
        className="attach-button"
        data-testid="attach"
        disabled={disabled}
        title={`Attach files (up to ${MAX_FILES}${each}), or drop them here`}
        onClick={() => input.current?.click()}
      >
        <PaperclipIcon />
        <span className="attach-label">Attach files</span>
      </button>
    </>
  );
}

/** The files the message will carry, each with its progress or its refusal, and the limits in words. */
export function PendingFiles({
  files,
  limit,
  onRemove,
}: {
  files: PendingFile[];
  limit: number | null;
  onRemove(key: number): void;
}) {
  if (!files.length) return null;
  return (
    <div className="pending-files">
      <ul aria-label="Files to send" data-testid="pending-files">
        {files.map((f) => (
          <li key={f.key} className={`pending-file ${f.status}`} data-testid="pending-file" data-status={f.status}>
            <span className="pending-name">{f.name}</span>
            <span className="pending-size">{formatBytes(f.size)}</span>
            {f.status === 'uploading' && (
              <progress
                max={f.size || 1}
                value={f.sent}
                aria-label={`Uploading ${f.name}`}
                data-testid="upload-progress"
              />
            )}
            {f.status === 'ready' && <span className="pending-state">ready</span>}
            <button
              type="button"
              className="pending-remove"
              data-testid="remove-file"
              aria-label={`Remove ${f.name}`}
              onClick={() => onRemove(f.key)}
            >
              ×
            </button>
            {f.error && (
              <p className="pending-error" role="alert" data-testid="file-error">
                {f.error}
              </p>
            )}
          </li>
        ))}
      </ul>
      <p className="pending-limits muted small" data-testid="file-limits">
        Up to {MAX_FILES} files{limit ? `, each up to ${limitWords(limit)}` : ''}.
      </p>
    </div>
  );
}

function PaperclipIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        d="M16.5 6.5v10a4.5 4.5 0 0 1-9 0V5a3 3 0 0 1 6 0v10.5a1.5 1.5 0 0 1-3 0V6.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    </svg>
  );
}
