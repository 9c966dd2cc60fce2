import { pathToFileURL } from "node:url";
const [dir, ...args] = process.argv.slice(2);
const { main } = await import(pathToFileURL(`${dir}/bin.mjs`).href);
process.exitCode = await main(args);
