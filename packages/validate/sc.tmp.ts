import { readdirSync } from "node:fs";
import { serialize, deserialize } from "node:v8";
import { loadFileText } from "./src/reader.ts";
const dir = process.argv[2];
const files = readdirSync(dir, { recursive: true }).map(String).filter((f) => /\.(ya?ml|json)$/.test(f)).slice(0, 3000);
const docs = files.map((f) => loadFileText(`${dir}/${f}`).docs);
console.log("sample keys", Object.keys(docs[0].resources[0] ?? {}));
const ser = docs.map((d) => serialize(d)); const js = docs.map((d) => JSON.stringify(d));
console.log("bytes v8", ser.reduce((a, b) => a + b.length, 0), "json", js.reduce((a, b) => a + b.length, 0));
for (let r = 0; r < 5; r++) {
  let t = performance.now(); for (const b of ser) deserialize(b); const a = performance.now() - t;
  t = performance.now(); for (const s of js) JSON.parse(s); const c = performance.now() - t;
  t = performance.now(); for (const d of docs) serialize(d); const e = performance.now() - t;
  t = performance.now(); for (const d of docs) JSON.stringify(d); const g = performance.now() - t;
  console.log(`deser v8 ${a.toFixed(1)} ms  JSON.parse ${c.toFixed(1)} ms | ser v8 ${e.toFixed(1)} JSON.stringify ${g.toFixed(1)}  (${docs.length} files)`);
}
