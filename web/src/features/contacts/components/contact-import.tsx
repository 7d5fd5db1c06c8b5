import { useMutation } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import type { ContactImport as Import } from '../../../shared/api/types.ts';
import { ProgressBar } from '../../../shared/charts/charts.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { StatusBadge } from '../../../shared/ui/buttons.tsx';
import { DataTable } from '../../../shared/ui/data-table.tsx';
import { getContactImport, importContactsCsv } from '../api.ts';
import { previewCsv } from '../csv-preview.ts';

export const countsOf = (i: Import) => `${i.created} created, ${i.updated} updated, ${i.rejected} rejected.`;

const finished = (i: Import) => i.status === 'completed' || i.status === 'failed';

/**
 * CSV import: upload (or paste), then the job's progress and the rows it rejected. `onDone` hears of the ended job
 * once (the page closes the panel after a clean import and shows its result).
 */
export function ContactImport({ onDone }: { onDone: (job: Import) => void }) {
  const api = useApi();
  const [pasted, setPasted] = useState('');
  // A chosen file is kept apart from the paste box: the form shows its name, row count and first rows instead.
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const csv = file ? file.text : pasted;
  const preview = useMemo(() => (csv.trim() === '' ? null : previewCsv(csv)), [csv]);
  const problem =
    preview && !preview.hasEmailColumn
      ? 'The file has no email column: its first row must name the columns, one of them "email".'
      : null;
  const cache = useProjectCache();
  const [jobId, setJobId] = useState<string | null>(null);

  const start = useMutation({
    mutationFn: () => importContactsCsv(api, csv),
    onSuccess: (started) => {
      cache.set(['contact-import', started.id], started);
      setJobId(started.id);
    },
  });

  // The job, read every second until it ends; the read that finds it ended tells the page once. Jobs are kept apart
  // from the contacts, whose refresh would read an ended job again.
  const poll = useProjectQuery(
    ['contact-import', jobId],
    async (client) => {
      const next = await getContactImport(client, jobId!);
      if (finished(next)) onDone(next);
      return next;
    },
    {
      enabled: jobId !== null,
      refetchInterval: (query) => (query.state.data && finished(query.state.data) ? false : 1000),
      // An ended job changes no more.
      staleTime: (query) => (query.state.data && finished(query.state.data) ? Infinity : 0),
    },
  );
  const job = jobId === null ? null : (poll.data ?? null);

  const pickFile = async (picked: File | undefined) => {
    setFile(picked ? { name: picked.name, text: await picked.text() } : null);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setJobId(null);
    start.mutate();
  };

  return (
    <section className="panel" aria-labelledby="import-title">
      <h2 id="import-title">Import contacts from CSV</h2>
      <p className="hint">
        A header row with an <code>email</code> column; <code>subscribed</code> (true/false) and <code>locale</code> (a
        language tag such as pt-BR) are optional; every other column goes into the contact’s data. Existing contacts are
        updated.
      </p>
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="import-file">CSV file</label>
          <input
            id="import-file"
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => void pickFile(e.target.files?.[0])}
          />
        </div>
        {file === null && (
          <div className="field">
            <label htmlFor="import-text">…or paste the CSV</label>
            <textarea
              id="import-text"
              className="code"
              rows={5}
              value={pasted}
              onChange={(e) => setPasted(e.target.value)}
              placeholder={'email,firstName,plan\nada@example.com,Ada,pro'}
            />
          </div>
        )}
        {preview && (
          <div className="import-preview" aria-label="Preview of the import" role="group">
            <p data-testid="import-summary">
              {file ? (
                <>
                  <strong>{file.name}</strong>:{' '}
                </>
              ) : (
                'Pasted: '
              )}
              {preview.rows} {preview.rows === 1 ? 'row' : 'rows'}, columns {preview.columns.join(', ')}
            </p>
            {problem === null && preview.first.length > 0 && (
              <DataTable
                caption={`First ${preview.first.length} rows`}
                rows={preview.first.map((cells, i) => ({ i, cells }))}
                rowKey={(r) => String(r.i)}
                columns={preview.columns.map((name, c) => ({
                  label: name && preview.columns.indexOf(name) === c ? name : `${name || 'column'} (${c + 1})`,
                  render: (r: { cells: string[] }) => <span className="truncate">{r.cells[c] ?? ''}</span>,
                }))}
              />
            )}
          </div>
        )}
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
        <button
          type="submit"
          disabled={start.isPending || csv.trim() === '' || problem !== null || (job !== null && !finished(job))}
        >
          Start import
        </button>
      </form>
      {start.error !== null && <ErrorMessage error={start.error} />}
      {poll.error !== null && <ErrorMessage error={poll.error} />}
      {job && (
        <div className="import-status" aria-live="polite">
          <p>
            Import <StatusBadge status={job.status} /> — {countsOf(job)}
          </p>
          <ProgressBar label="Rows processed" value={job.processed} max={job.total} />
          {job.failure && <p className="field-error">{job.failure}</p>}
          {job.errors.length > 0 && (
            <>
              <h3>Rejected rows</h3>
              <DataTable
                caption="Rejected rows"
                rows={job.errors}
                rowKey={(r) => `${r.row}`}
                columns={[
                  { label: 'Row', render: (r) => r.row, numeric: true },
                  { label: 'Email', render: (r) => r.email ?? '—' },
                  { label: 'Reason', render: (r) => r.reason },
                ]}
              />
            </>
          )}
        </div>
      )}
    </section>
  );
}
