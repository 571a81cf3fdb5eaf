// The chat template as the in-process backend uses it: messages → node-llama-cpp chat history, the
// model's wrapper without a per-day line, and a fingerprint of what the template renders.
import { createHash } from "node:crypto";
import type { ChatHistoryItem, ChatWrapper, LlamaChat, LlamaModel } from "node-llama-cpp";
import type { ChatMessage } from "./types.js";

type NodeLlamaCpp = typeof import("node-llama-cpp");

/** The kit's messages as node-llama-cpp chat history, ending in an open model turn to generate into. */
export function toHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((m) =>
    m.role === "assistant" ? { type: "model", response: [m.content] } : { type: m.role, text: m.content },
  );
  history.push({ type: "model", response: [] });
  return history;
}

/**
 * The model's chat wrapper without a per-day line: node-llama-cpp's Llama 3.1 and 3.2 (1B/3B) wrappers
 * write "Today Date: <today>" into the first system block, which would make the saved prompt state
 * worthless the next day. The kit sends the date as its own message after the system prompt
 * (todayMessage). The date is switched off through node-llama-cpp's public `customWrapperSettings`, laid
 * over its own choice of wrapper and options (no private field is read); everything else stays as it chose.
 */
export function dateFreeChatWrapper(nlc: NodeLlamaCpp, model: LlamaModel): ChatWrapper {
  return nlc.resolveChatWrapper(model, {
    customWrapperSettings: { "llama3.1": { todayDate: null }, "llama3.2-lightweight": { todayDate: null } },
  });
}

/**
 * The chat template as the kit uses it: the wrapper's name and a hash of what it renders for a fixed
 * probe conversation (a date or any other change in the rendering changes it).
 */
export function templateIdentity(chat: LlamaChat): string {
  const probe: ChatHistoryItem[] = [
    { type: "system", text: "S" },
    { type: "user", text: "U" },
    { type: "model", response: ["A"] },
    { type: "user", text: "V" },
    { type: "model", response: [] },
  ];
  const rendered = chat.chatWrapper.generateContextState({ chatHistory: probe }).contextText.toString();
  return `${chat.chatWrapper.wrapperName} ${createHash("sha256").update(rendered).digest("hex").slice(0, 16)}`;
}
