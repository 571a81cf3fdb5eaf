import { env, pipeline, AutoTokenizer } from "@huggingface/transformers";
env.localModelPath = "/work/main/models/tiny";
env.allowRemoteModels = false;
const so = { intraOpNumThreads: 1, interOpNumThreads: 1 };
for (const dtype of ["fp32", "q8"] as const) {
  const fe = await pipeline("feature-extraction", "tiny-bert", { dtype, session_options: so });
  const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
  const S = [
    ["Der Zug nach Berlin fährt um acht Uhr ab.", "Um acht Uhr fährt der Zug nach Berlin.", "Im Garten blühen im Frühling viele Blumen."],
    ["Morgen wird das Wetter in München sonnig und warm.", "In München ist es morgen warm und sonnig.", "Das Modell beantwortet Fragen zu Dokumenten."],
    ["Das Hotel in Barcelona ist teuer.", "Das Hotelzimmer in Barcelona kostet viel Geld.", "Ich lerne jeden Tag neue Wörter."],
    ["Zug", "Züge", "Käse"],
    ["Übermorgen regnet es in Köln.", "In Köln regnet es übermorgen stark.", "Die Straße ist geschlossen."],
  ];
  for (const [a, p, u] of S) {
    const out = await fe([a!, p!, u!], { pooling: "mean", normalize: true });
    const l = out.tolist() as number[][];
    console.log(dtype, out.dims, cos(l[0]!, l[1]!).toFixed(3), cos(l[0]!, l[2]!).toFixed(3));
  }
}
const tok = await AutoTokenizer.from_pretrained("tiny-bert");
for (const t of ["Die Straßenbahn fährt über die Brücke nach Düsseldorf – Größe: 3,5 m², Preis 12 €!", "ÄÖÜ ẞ Café naïve", "Übermorgen"]) {
  console.log(tok.tokenize(t).join(" "));
  console.log(tok(t).input_ids.tolist());
}
