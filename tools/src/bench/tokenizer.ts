/** Token counts with a real tokenizer: OpenAI's cl100k_base (GPT-4 / GPT-3.5 family; its ranks load in about half the time of o200k_base), via js-tiktoken. */
import { Tiktoken } from "js-tiktoken/lite";
import cl100kBase from "js-tiktoken/ranks/cl100k_base";

export const TOKENIZER = "cl100k_base (js-tiktoken 1.0.21)";

let encoder: Tiktoken | undefined;

export function countTokens(text: string): number {
  encoder ??= new Tiktoken(cl100kBase);
  return encoder.encode(text).length;
}

/** The compact JSON a harness receives, measured in bytes and tokens. */
export function sizeOf(value: unknown): { bytes: number; tokens: number } {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return { bytes: Buffer.byteLength(text), tokens: countTokens(text) };
}
