// A static file server for CI's fresh-clone stage: serves one folder (the schema mirror) on 127.0.0.1 at a free
// port, GET and HEAD only, and prints the base URL on stdout once it listens. Stopped by SIGTERM.
import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import { join, resolve, sep } from "node:path";

const root = resolve(process.argv[2] ?? ".");
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? "/", "http://127.0.0.1").pathname);
  const file = resolve(join(root, path));
  let size = -1;
  if (file.startsWith(root + sep)) {
    try {
      const st = statSync(file);
      if (st.isFile()) size = st.size;
    } catch {
      // not there: 404 below
    }
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405).end();
  } else if (size < 0) {
    res.writeHead(404, { "content-type": "text/plain" }).end(`not found: ${path}\n`);
  } else {
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": size });
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
  }
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
