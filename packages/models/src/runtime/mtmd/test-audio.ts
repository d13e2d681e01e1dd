// Test audio: a WAV file (RIFF, 16-bit PCM, mono) holding a sine tone, made in memory.

/** What tone to make; the defaults suit llama.cpp's audio projectors (16 kHz mono). */
export interface SineWavOptions {
  seconds?: number;
  frequency?: number;
  sampleRate?: number;
  /** Peak level, 0..1 of full scale. */
  amplitude?: number;
}

/** Bytes of the RIFF/WAVE header before the samples (RIFF, fmt and data chunk heads). */
const HEADER_BYTES = 44;

/** A WAV file of a sine tone: 16-bit little-endian PCM, one channel. */
export function sineWav(options: SineWavOptions = {}): Buffer {
  const sampleRate = options.sampleRate ?? 16000;
  const seconds = options.seconds ?? 1;
  const frequency = options.frequency ?? 440;
  const amplitude = options.amplitude ?? 0.5;
  const samples = Math.round(seconds * sampleRate);
  const buf = Buffer.alloc(HEADER_BYTES + samples * 2);
  buf.write("RIFF", 0, "ascii");
  buf.writeUInt32LE(buf.length - 8, 4);
  buf.write("WAVE", 8, "ascii");
  buf.write("fmt ", 12, "ascii");
  buf.writeUInt32LE(16, 16); // fmt chunk size for PCM
  buf.writeUInt16LE(1, 20); // format 1: integer PCM
  buf.writeUInt16LE(1, 22); // channels
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * 2, 28); // bytes per second
  buf.writeUInt16LE(2, 32); // bytes per frame
  buf.writeUInt16LE(16, 34); // bits per sample
  buf.write("data", 36, "ascii");
  buf.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    const value = amplitude * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
    buf.writeInt16LE(Math.round(value * 32767), HEADER_BYTES + i * 2);
  }
  return buf;
}
