// The tool-calling model of the menu (Qwen2.5-7B-Instruct, `models:pull qwen2.5-7b`) cannot be downloaded
// here; its real chat template can: llama.cpp keeps a copy (models/templates/, commit 80fb11a of the source
// node-llama-cpp 3.21.1 bundles). A tiny GGUF with the qwen2 architecture carries that template, and
// node-llama-cpp must pick its specialised Qwen wrapper from the file and render chats and functions
// exactly as the template does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  JinjaTemplateChatWrapper,
  QwenChatWrapper,
  readGgufFileInfo,
  resolveChatWrapper,
  type ChatHistoryItem,
} from "node-llama-cpp";
import { findProjectRoot } from "../../lib/config.js";
import { MODEL_CHOICES } from "../../lib/llm/model-files.js";
import { gguf, writeGgufFile } from "../../scripts/dev/tiny-models/gguf-writer.js";

const TEMPLATE_FILE = join(
  findProjectRoot(),
  "scripts",
  "dev",
  "tiny-models",
  "templates",
  "Qwen-Qwen2.5-7B-Instruct.jinja",
);

const history: ChatHistoryItem[] = [
  { type: "system", text: "Du planst Reisen." },
  { type: "user", text: "Wie wird das Wetter in Köln?" },
  { type: "model", response: ["Ich sehe nach."] },
  { type: "user", text: "Und übermorgen?" },
];

test("the menu offers Qwen2.5-7B-Instruct with its score source and license", () => {
  const qwen = MODEL_CHOICES.find((m) => m.id === "qwen2.5-7b");
  assert.ok(qwen, "qwen2.5-7b in MODEL_CHOICES");
  assert.match(qwen.uri, /^hf:bartowski\/Qwen2\.5-7B-Instruct-GGUF:Q4_K_M$/);
  assert.match(qwen.note, /Berkeley Function Calling Leaderboard/);
  assert.match(qwen.note, /Apache-2\.0/);
});

test("node-llama-cpp resolves its Qwen wrapper from a GGUF carrying Qwen2.5's template and renders like the template", async () => {
  const template = await readFile(TEMPLATE_FILE, "utf8");
  const dir = await mkdtemp(join(tmpdir(), "qwen-template-"));
  try {
    const path = join(dir, "tiny-qwen2.gguf");
    await writeGgufFile(
      path,
      {
        "general.architecture": gguf.str("qwen2"),
        "general.name": gguf.str("Tiny Qwen2 template carrier"),
        "tokenizer.chat_template": gguf.str(template),
      },
      [],
    );
    const fileInfo = await readGgufFileInfo(path, { readTensorInfo: false });
    assert.equal(fileInfo.metadata.tokenizer?.chat_template, template);
    const wrapper = resolveChatWrapper({ fileInfo, filename: "Qwen2.5-7B-Instruct-Q4_K_M.gguf" });
    assert.ok(wrapper instanceof QwenChatWrapper, `got ${wrapper?.constructor.name}`);

    // The same chat through the template itself (Jinja) and through the resolved wrapper.
    const rendered = wrapper.generateContextState({ chatHistory: history }).contextText.toString();
    const byTemplate = new JinjaTemplateChatWrapper({ template })
      .generateContextState({ chatHistory: history })
      .contextText.toString();
    assert.equal(rendered, `${byTemplate}<|im_start|>assistant\n`);
    assert.match(rendered, /^<\|im_start\|>system\nDu planst Reisen\.<\|im_end\|>\n/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("the Qwen wrapper's function calls use the template's <tool_call> JSON format", async () => {
  const template = await readFile(TEMPLATE_FILE, "utf8");
  assert.match(
    template,
    /<tool_call>\\n\{\\"name\\": <function-name>, \\"arguments\\": <args-json-object>\}\\n<\/tool_call>/,
  );
  const wrapper = new QwenChatWrapper();
  assert.match(wrapper.settings.functions.call.prefix.toString(), /<tool_call>/);
  assert.match(wrapper.settings.functions.call.suffix.toString(), /<\/tool_call>/);
});
