/** Zero-padded, as resmon writes the parts of its timestamps. */
export function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}
