// IAM condition operators and which key types each accepts. Hand-written: iam-data has keys and types but no operator table.

export type OperatorFamily = "String" | "Numeric" | "Date" | "Bool" | "Binary" | "IpAddress" | "Arn" | "Null";

const OPERATORS: Readonly<Record<string, OperatorFamily>> = {
  StringEquals: "String",
  StringNotEquals: "String",
  StringEqualsIgnoreCase: "String",
  StringNotEqualsIgnoreCase: "String",
  StringLike: "String",
  StringNotLike: "String",
  NumericEquals: "Numeric",
  NumericNotEquals: "Numeric",
  NumericLessThan: "Numeric",
  NumericLessThanEquals: "Numeric",
  NumericGreaterThan: "Numeric",
  NumericGreaterThanEquals: "Numeric",
  DateEquals: "Date",
  DateNotEquals: "Date",
  DateLessThan: "Date",
  DateLessThanEquals: "Date",
  DateGreaterThan: "Date",
  DateGreaterThanEquals: "Date",
  Bool: "Bool",
  BinaryEquals: "Binary",
  IpAddress: "IpAddress",
  NotIpAddress: "IpAddress",
  ArnEquals: "Arn",
  ArnLike: "Arn",
  ArnNotEquals: "Arn",
  ArnNotLike: "Arn",
  Null: "Null",
};

export interface ParsedOperator {
  readonly base: string;
  readonly family: OperatorFamily;
  readonly setOperator: "ForAllValues" | "ForAnyValue" | undefined;
  readonly ifExists: boolean;
  /** True for the negated operators (StringNotEquals, ArnNotLike, NotIpAddress, ...). */
  readonly negated: boolean;
}

/** Parses `[ForAllValues:|ForAnyValue:]<Operator>[IfExists]`; undefined when it is not an IAM operator. */
export function parseOperator(name: string): ParsedOperator | undefined {
  const m = /^(?:(ForAllValues|ForAnyValue):)?([A-Za-z]+?)(IfExists)?$/.exec(name);
  if (!m) return undefined;
  const base = m[2]!;
  const family = OPERATORS[base];
  if (!family) return undefined;
  if (family === "Null" && (m[3] || m[1])) return undefined;
  return {
    base,
    family,
    setOperator: m[1] as ParsedOperator["setOperator"],
    ifExists: m[3] !== undefined,
    negated: /Not/.test(base),
  };
}

/** Operator families that can compare a key of this iam-data type (element type for ArrayOf* keys). */
export function familiesForType(type: string): readonly OperatorFamily[] {
  const element = type.replace(/^ArrayOf/, "");
  switch (element) {
    case "String":
      return ["String"];
    // ARN keys compare with the Arn operators; String operators also work on their text.
    case "ARN":
      return ["Arn", "String"];
    case "Numeric":
      return ["Numeric"];
    // Epoch seconds compare with Numeric operators too.
    case "Date":
      return ["Date", "Numeric"];
    case "Bool":
      return ["Bool"];
    case "IPAddress":
      return ["IpAddress"];
    case "Binary":
      return ["Binary"];
    default:
      return ["String"];
  }
}

export function isMultiValuedType(type: string): boolean {
  return type.startsWith("ArrayOf");
}
