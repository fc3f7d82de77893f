// Saving a file the server sent to an admin call (a CSV export) on the admin's computer.

/** Save a Blob under filename through a temporary link (an export needs the admin token, so no plain link). */
export function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
