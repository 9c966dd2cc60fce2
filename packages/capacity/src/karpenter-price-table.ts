// Reads the on-demand price map of aws/karpenter-provider-aws pkg/providers/pricing/zz_generated.pricing_aws.go (Go source) as data.

export interface KarpenterPriceTable {
  /** The region of the table (v1.14.1 ships us-east-1 only; Karpenter uses it for every other region until it reaches the Pricing API). */
  readonly region: string;
  /** From the file's `// generated at <time> for <region>` line. */
  readonly generatedAt: string;
  /** USD per hour by instance type. */
  readonly onDemand: Readonly<Record<string, number>>;
}

/** Parses the generated Go map literal: `"<region>": { "<type>": <price>, ... }`; throws naming the line on anything else. */
export function parseKarpenterPriceTable(source: string): KarpenterPriceTable {
  const header = /^\/\/ generated at (\S+) for (\S+)$/m.exec(source);
  if (!header) throw new Error("no `// generated at <time> for <region>` line: not Karpenter's zz_generated pricing file");
  const region = header[2]!;
  const onDemand: Record<string, number> = {};
  let inRegion = false;
  for (const [i, line] of source.split("\n").entries()) {
    const t = line.trim();
    if (t === `${JSON.stringify(region)}: {`) {
      inRegion = true;
      continue;
    }
    if (!inRegion) continue;
    if (t === "}," || t === "}") break;
    if (t === "" || t.startsWith("//")) continue;
    for (const cell of t.split(",").map((c) => c.trim()).filter(Boolean)) {
      const m = /^"([a-z0-9-]+\.[a-z0-9-]+)": (\d+\.\d+)$/.exec(cell);
      if (!m) throw new Error(`line ${i + 1}: unexpected entry ${JSON.stringify(cell)}`);
      onDemand[m[1]!] = Number(m[2]);
    }
  }
  if (Object.keys(onDemand).length === 0) throw new Error(`no prices for ${region}`);
  return { region, generatedAt: header[1]!, onDemand };
}
