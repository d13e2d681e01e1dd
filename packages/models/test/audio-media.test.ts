// Test audio: the in-memory sine WAV and the committed MP3 fixture are what mtmd expects.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { sineWav } from "../src/runtime/mtmd/test-audio.js";

/** Compiled tests run from dist/test; the fixture stays in the sources' test/fixtures. */
const MP3 = fileURLToPath(new URL("../../test/fixtures/tone-1s.mp3", import.meta.url));

describe("test audio", () => {
  it("writes a RIFF/WAVE header for 16-bit mono PCM at the asked rate", () => {
    const wav = sineWav({ seconds: 0.5, sampleRate: 8000 });
    assert.equal(wav.toString("ascii", 0, 4), "RIFF");
    assert.equal(wav.toString("ascii", 8, 12), "WAVE");
    assert.equal(wav.readUInt32LE(4), wav.length - 8);
    assert.equal(wav.readUInt16LE(20), 1); // PCM
    assert.equal(wav.readUInt16LE(22), 1); // mono
    assert.equal(wav.readUInt32LE(24), 8000);
    assert.equal(wav.readUInt16LE(34), 16);
    assert.equal(wav.toString("ascii", 36, 40), "data");
    assert.equal(wav.readUInt32LE(40), 4000 * 2);
    assert.equal(wav.length, 44 + 8000);
  });

  it("fills the samples with a sine of the asked amplitude", () => {
    const wav = sineWav({ seconds: 1, frequency: 1000, amplitude: 0.25 });
    const samples = Array.from({ length: 16000 }, (_, i) => wav.readInt16LE(44 + i * 2));
    assert.equal(samples[0], 0);
    assert.equal(samples[4], Math.round(0.25 * 32767)); // a quarter period of 1 kHz at 16 kHz
    assert.equal(Math.max(...samples), Math.round(0.25 * 32767));
  });

  it("keeps the MP3 fixture small and starting with the frame sync mtmd sniffs", () => {
    const mp3 = readFileSync(MP3);
    assert.ok(mp3.length < 10 * 1024, `fixture is ${mp3.length} bytes`);
    const [b0 = 0, b1 = 0, b2 = 0] = mp3;
    assert.equal(b0, 0xff);
    assert.equal(b1 & 0xe0, 0xe0);
    assert.equal((b1 >> 3) & 3, 2, "MPEG-2");
    assert.equal((b1 >> 1) & 3, 1, "layer III");
    assert.equal((b2 >> 2) & 3, 2, "16 kHz for MPEG-2");
  });
});
