/** Saves a body the page fetched (with the session's key) as a file in the browser's downloads. */
export async function saveBlob(fetchBlob: () => Promise<Blob>, filename: string): Promise<void> {
  const url = URL.createObjectURL(await fetchBlob());
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
