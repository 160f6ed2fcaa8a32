// Adds result files to the server: pick them or drop them here. Each file is validated by the
// server; a refused one shows the server's reason.
import { useState, type DragEvent } from 'react';
import { uploadResult } from '../api.js';

interface Outcome {
  file: string;
  ok: boolean;
  message: string;
}

export function Upload({ onUploaded }: { onUploaded: (names: string[]) => void }) {
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [over, setOver] = useState(false);

  async function send(files: FileList | File[]) {
    const results: Outcome[] = [];
    const stored: string[] = [];
    for (const file of files) {
      try {
        const summary = await uploadResult(await file.text());
        stored.push(summary.name);
        results.push({ file: file.name, ok: true, message: `stored as ${summary.name}` });
      } catch (error) {
        results.push({ file: file.name, ok: false, message: error instanceof Error ? error.message : String(error) });
      }
    }
    setOutcomes(results);
    if (stored.length) onUploaded(stored);
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setOver(false);
    void send(event.dataTransfer.files);
  }

  return (
    <div
      className={`dropzone${over ? ' over' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <label>
        Add result files (drop them here, or pick){' '}
        <input
          type="file"
          accept=".json,application/json"
          multiple
          aria-label="upload result files"
          onChange={(e) => e.target.files && void send(e.target.files)}
        />
      </label>
      <p className="muted small">
        From another machine: <code>npx wirespeed bench --push {location.origin}</code>
      </p>
      {outcomes.length > 0 && (
        <ul className="outcomes">
          {outcomes.map((o) => (
            <li key={o.file} className={o.ok ? 'ok' : 'error'} role={o.ok ? undefined : 'alert'}>
              {o.file}: {o.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
