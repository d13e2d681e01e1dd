// A small projector GGUF (general.architecture clip) written with the project's GGUF writer, for tests.
import { GgmlTensorType } from "../src/gguf/gguf-format.js";
import { type GgufTypedValue, gguf, writeGgufFile } from "../src/gguf/gguf-writer.js";

/** Which encoders the projector claims, and its name. */
export interface TestProjectorOptions {
  vision?: boolean;
  audio?: boolean;
  name?: string;
  /** `general.architecture` (clip unless a test needs a wrong one). */
  architecture?: string;
}

/**
 * Writes a real GGUF with a projector's metadata (encoder flags, the vision encoder's
 * embedding length and projection dimensions) and one 4x4 f32 tensor. llama.cpp's clip
 * loader would not take it (it lacks the encoder's tensors): it serves the store, show
 * and request checks, not generation.
 */
export async function writeTestProjector(
  path: string,
  options: TestProjectorOptions = {},
): Promise<void> {
  const vision = options.vision ?? true;
  const audio = options.audio ?? false;
  const metadata: Array<readonly [string, GgufTypedValue]> = [
    ["general.architecture", gguf.str(options.architecture ?? "clip")],
    ["general.name", gguf.str(options.name ?? "test projector")],
    ["clip.has_text_encoder", gguf.bool(false)],
    ["clip.has_vision_encoder", gguf.bool(vision)],
    ["clip.has_audio_encoder", gguf.bool(audio)],
    ["clip.projector_type", gguf.str("mlp")],
  ];
  if (vision)
    metadata.push(
      ["clip.vision.image_size", gguf.u32(32)],
      ["clip.vision.patch_size", gguf.u32(8)],
      ["clip.vision.embedding_length", gguf.u32(16)],
      ["clip.vision.projection_dim", gguf.u32(64)],
    );
  if (audio)
    metadata.push(
      ["clip.audio.embedding_length", gguf.u32(24)],
      ["clip.audio.projection_dim", gguf.u32(64)],
    );
  const data = Buffer.alloc(4 * 16);
  for (let i = 0; i < 16; i++) data.writeFloatLE(i / 16, i * 4);
  await writeGgufFile(path, metadata, [
    { name: "mm.0.weight", dims: [4, 4], type: GgmlTensorType.F32, data: () => data },
  ]);
}
