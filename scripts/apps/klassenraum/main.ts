// `npm run klassenraum [-- --host 0.0.0.0 --allowed-host kurs-pc.local] [--uebung]` — one command for the
// instructor: the class server (llama.cpp's llama-server with the configured model), the class board and
// the Klassenraum-Hub, started together; prints one URL and its QR code for the room and stops all three on
// Ctrl+C. The participants' kernels run on this machine, so the class server and the board stay on
// loopback; only the hub is reachable from the room.
import { existsSync, statSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";
import { join } from "node:path";
import QRCode from "qrcode";
import { findProjectRoot, loadConfig, tinyModelPaths } from "../../../lib/config.js";
import { errorText } from "../../../lib/util.js";
import { findLlamaTools } from "../../dev/llama-build.js";
import { DEFAULT_HUB_MAX, DEFAULT_HUB_PORT, parseHubArgs, wholeNumber } from "../hub/args.js";
import { boardDataPath, classJoinCode } from "../hub/join-code.js";
import { freePort } from "../../node/free-port.js";
import { jupyterhubMissing } from "../hub/start.js";
import { DEFAULT_CLASS_CONTEXT, DEFAULT_CLASS_PARALLEL, GB, modelShape, planClassServer } from "./class-sizing.js";
import { kitScript, ServiceStartError, startService, waitForHttp, waitForLine, type Service } from "./services.js";
import { practiceEnvironment } from "../models/model-help.js";
import { parseArgsGerman, printUsageError, UsageError } from "../../node/parse-args-german.js";

const USAGE =
  "Aufruf: npm run klassenraum -- [--port 8000] [--host H --allowed-host NAME …] [--code C] [--max 30]\n" +
  "                               [--modell DATEI.gguf | --uebung] [--parallel 4] [--kontext 8192]\n" +
  "                               [--llm-port 8080] [--board-port 8790] [--root ORDNER]\n" +
  "  --port P            Port des Hubs für den Raum (Standard 8000; 0 = ein freier)\n" +
  "  --host H            Adresse des Hubs (Standard 127.0.0.1; für den Raum z. B. 0.0.0.0 mit --allowed-host)\n" +
  "  --allowed-host N    Host-Name, unter dem der Raum den Hub erreicht (Pflicht bei --host 0.0.0.0)\n" +
  "  --modell DATEI      GGUF des Klassen-Servers (Standard: LLM_MODEL_PATH bzw. models/…8B…gguf)\n" +
  "  --uebung            winziges Testmodell statt des echten (Probe ohne Modell-Download)\n" +
  "  --parallel N        gleichzeitige Anfragen des Klassen-Servers (Standard 4; mit GPU mehr, siehe Leitfaden)\n" +
  "  --kontext T         Kontext je Anfrage in Tokens (Standard 8192)\n" +
  "  --gpu-layers N      Schichten auf die GPU (llama-server -ngl; nur mit GPU-Build über LLAMA_SERVER_BIN)\n" +
  "  --llm-port, --board-port  Ports von Klassen-Server (8080) und Board (8790), nur auf diesem Rechner\n" +
  "  --board-daten DATEI       Ergebnisdatei des Boards (Standard .cache/board/ergebnisse.json)\n" +
  "  --code, --max, --root     wie bei npm run hub\n" +
  "  -h, --help                diese Hilfe";

const OPTIONS = {
  port: { type: "string", default: String(DEFAULT_HUB_PORT) },
  host: { type: "string", default: "127.0.0.1" },
  "allowed-host": { type: "string", multiple: true },
  code: { type: "string" },
  max: { type: "string", default: String(DEFAULT_HUB_MAX) },
  root: { type: "string" },
  modell: { type: "string" },
  uebung: { type: "boolean" },
  parallel: { type: "string", default: String(DEFAULT_CLASS_PARALLEL) },
  kontext: { type: "string", default: String(DEFAULT_CLASS_CONTEXT) },
  "gpu-layers": { type: "string" },
  "llm-port": { type: "string", default: "8080" },
  "board-port": { type: "string", default: "8790" },
  "board-daten": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const count = (text: string, flag: string, min: number, max: number) => wholeNumber(text, flag, min, max, USAGE);

function llamaServerBinary(): string {
  const own = process.env.LLAMA_SERVER_BIN;
  if (own) return own;
  const tools = findLlamaTools();
  if ("bin" in tools) return join(tools.bin, "llama-server");
  throw new ServiceStartError(
    `llama-server fehlt (${tools.missing}): einmal 'npm run llama:build' (10–20 Minuten) oder LLAMA_SERVER_BIN=/pfad/zu/llama-server setzen (z. B. ein CUDA-Build).`,
  );
}

async function main(): Promise<number> {
  const kitRoot = findProjectRoot();
  let values;
  try {
    values = parseArgsGerman({ args: process.argv.slice(2), options: OPTIONS }, USAGE).values;
  } catch (error) {
    if (error instanceof UsageError) return printUsageError(error);
    throw error;
  }
  let parallel: number, context: number, llmPort: number, boardPort: number;
  try {
    parallel = count(values.parallel, "--parallel", 1, 64);
    context = count(values.kontext, "--kontext", 512, 131_072);
    llmPort = count(values["llm-port"], "--llm-port", 0, 65535);
    boardPort = count(values["board-port"], "--board-port", 0, 65535);
    if (values["gpu-layers"] !== undefined) count(values["gpu-layers"], "--gpu-layers", 0, 999);
    // The hub's own rules (loopback unless --allowed-host, --max, --code), checked before anything starts.
    parseHubArgs(["--port", values.port, "--host", values.host, "--max", values.max, ...(values.code ? ["--code", values.code] : []), ...(values["allowed-host"] ?? []).flatMap((h) => ["--allowed-host", h])], kitRoot);
  } catch (error) {
    console.error(errorText(error));
    return 2;
  }
  const model = values.uebung ? tinyModelPaths(kitRoot).gguf : (values.modell ?? loadConfig().llmModelPath);
  const problems = [
    jupyterhubMissing(),
    existsSync(model) ? undefined : `Modelldatei fehlt: ${model} – 'npm run models:pull', --modell DATEI.gguf oder zum Ausprobieren --uebung.`,
  ].filter((p): p is string => p !== undefined);
  let llamaServer: string;
  try {
    llamaServer = llamaServerBinary();
  } catch (error) {
    problems.push(errorText(error));
    llamaServer = "";
  }
  if (problems.length) {
    console.error(problems.join("\n"));
    return 1;
  }

  const env = values.uebung ? await practiceEnvironment() : { ...process.env };
  const code = await classJoinCode(values["board-daten"] ?? boardDataPath(kitRoot), values.code, console.error);
  const services: Service[] = [];
  let stopping = false;
  const stopAll = async () => {
    stopping = true;
    // The hub first (it ends the participants' kernels), then the board and the class server.
    for (const s of [...services].reverse()) await s.stop();
  };
  process.on("SIGINT", () => void stopAll().then(() => process.exit(0)));
  process.on("SIGTERM", () => void stopAll().then(() => process.exit(0)));

  try {
    if (llmPort === 0) llmPort = await freePort();
    const threads = loadConfig(env).llmThreads ?? Math.max(1, availableParallelism() - 1);
    // Settings that fit this machine with --max participants (class-sizing.ts): a q8_0 KV cache, the repacked
    // weights only when there is room for them.
    const plan = planClassServer(statSync(model).size, await modelShape(model), parallel * context, totalmem(), Number(values.max));
    console.log(`Klassen-Server startet (${parallel} gleichzeitige Anfragen, ${context} Tokens Kontext je Anfrage) …`);
    console.log(
      `  Speicher: etwa ${(plan.bytes / GB).toFixed(1).replace(".", ",")} GB (KV-Cache q8_0: halb so groß wie fp16, kaum Qualitätsverlust` +
        (plan.repack ? ")" : "; --no-repack: ohne die umsortierte Kopie der Gewichte – spart ~2/3 der Modellgröße, liest Prompts auf Prozessoren mit AMX/AVX-512 langsamer ein)"),
    );
    const llm = startService(
      "Klassen-Server (llama-server)",
      llamaServer,
      [
        "-m", model, "--host", "127.0.0.1", "--port", String(llmPort), "-c", String(parallel * context), "--parallel", String(parallel),
        "-t", String(threads), "--jinja", "--no-webui", ...plan.flags, ...(values["gpu-layers"] ? ["-ngl", values["gpu-layers"]] : []),
      ],
      env,
      kitRoot,
    );
    services.push(llm);
    await waitForHttp(llm, `http://127.0.0.1:${llmPort}/health`, 10 * 60_000);
    const llmUrl = `http://127.0.0.1:${llmPort}/v1`;

    const boardCmd = kitScript(kitRoot, "apps/board/main.ts");
    const board = startService("Klassen-Board", boardCmd.command, [...boardCmd.args, "--port", String(boardPort), "--code", code, ...(values["board-daten"] ? ["--data", values["board-daten"]] : [])], env, kitRoot);
    services.push(board);
    const boardUrl = (await waitForLine(board, /Für den Beamer:\s+(http:\S+)/, 60_000)).replace(/\/$/, "");

    const hubCmd = kitScript(kitRoot, "apps/hub/main.ts");
    const hubArgs = [
      ...hubCmd.args, "--port", values.port, "--host", values.host, "--code", code, "--max", values.max,
      "--llm-url", llmUrl, "--board", boardUrl,
      ...(values.root ? ["--root", values.root] : []),
      ...(values["allowed-host"] ?? []).flatMap((h) => ["--allowed-host", h]),
    ];
    const hub = startService("Klassenraum-Hub", hubCmd.command, hubArgs, env, kitRoot);
    services.push(hub);
    const roomUrl = await waitForLine(hub, /Für den Raum:\s+(http:\S+)/, 3 * 60_000);
    const warnings = hub.output().split("\n").filter((l) => l.startsWith("WARNUNG"));

    console.log(
      [
        "",
        "Klassenraum läuft.",
        `  Für den Raum:     ${roomUrl}`,
        `  Beitrittscode:    ${code}`,
        `  Klassen-Board:    ${boardUrl}   (für den Beamer)`,
        `  Klassen-Server:   ${llmUrl}   (${model.split("/").pop()}, ${parallel} gleichzeitig)`,
        ...warnings.map((w) => `  ${w}`),
        ...(values.host === "127.0.0.1" ? ["  Nur auf diesem Rechner erreichbar – für den Raum: --host 0.0.0.0 --allowed-host <Name oder IP dieses Rechners>"] : []),
        "",
        await QRCode.toString(roomUrl, { type: "terminal", small: true }),
        "Beenden mit Strg+C (beendet alle drei).",
      ].join("\n"),
    );
    const first = await Promise.race(services.map((s) => new Promise<Service>((resolve) => s.child.once("exit", () => resolve(s)))));
    if (stopping) return new Promise<number>(() => undefined);
    console.error(`${first.name} hat sich beendet:\n${first.output().slice(-1500)}\nDie anderen werden auch beendet.`);
    await stopAll();
    return 1;
  } catch (error) {
    console.error(error instanceof ServiceStartError ? error.message : `Der Klassenraum konnte nicht starten: ${errorText(error)}`);
    await stopAll();
    return 1;
  }
}

if (/[\\/]apps[\\/]klassenraum[\\/]main\.ts$/.test(process.argv[1] ?? "")) process.exitCode = await main();
