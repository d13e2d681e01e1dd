// The PROCESSOR column of `llmsrv ps`: where a loaded model's memory is, as `ollama ps` says it.

/**
 * "100% CPU" with nothing on the GPU, "100% GPU" with everything there, else the rounded
 * shares as "48%/52% CPU/GPU"; "Unknown" for sizes that do not add up (more VRAM than size).
 */
export function processorLabel(size: number, sizeVram: number): string {
  if (sizeVram <= 0) return "100% CPU";
  if (sizeVram === size) return "100% GPU";
  if (sizeVram > size || size <= 0) return "Unknown";
  const cpu = Math.round(((size - sizeVram) / size) * 100);
  return `${cpu}%/${100 - cpu}% CPU/GPU`;
}
