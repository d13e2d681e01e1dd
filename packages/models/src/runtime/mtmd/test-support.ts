// What the multimodal runtime's tests share: whether the addon runs here, and greedy sampling.
import { messageOf } from "../../errors.js";
import type { SamplingOptions } from "../model-runner.js";
import { loadMtmdAddon } from "./mtmd-addon.js";

/** Why the addon cannot run here (it is built on first need), or undefined when it can. */
export function addonMissing(): string | undefined {
  try {
    loadMtmdAddon("cpu");
    return undefined;
  } catch (e) {
    return `the native mtmd addon is not available: ${messageOf(e)}`;
  }
}

/** Greedy decoding of up to `numPredict` tokens, nothing penalised, no stop sequences. */
export function greedySampling(numPredict: number): SamplingOptions {
  return {
    temperature: 0,
    seed: 1,
    topK: 40,
    topP: 0.9,
    minP: 0,
    repeatPenalty: 1,
    repeatLastN: 64,
    presencePenalty: 0,
    frequencyPenalty: 0,
    numPredict,
    stop: [],
    numKeep: 4,
  };
}
