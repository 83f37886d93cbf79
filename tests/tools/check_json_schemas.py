#!/usr/bin/python3
"""Checks the JSON documents of the command against their JSON Schemas (docs/json/):
`infer --json`, `show --json` (with and without --bind), `profile --json` (with --by
and --sweep) and `report --json` (the data of the report page, with and without --bind)
of every model in examples/models/ and tests/exported/models/.

    check_json_schemas.py SYMSHAPE ROOT

The schemas use a small part of JSON Schema (type, const, enum, required, properties,
additionalProperties, items, $ref to #/$defs), which validate() below implements, so
that the check needs no package beyond Python. Exit status 1 on any mismatch.
"""

import glob
import json
import os
import subprocess
import sys

TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def type_ok(value, name):
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, TYPES[name])


def validate(value, schema, root, path="$"):
    """The problems of value against schema, as 'path: what' strings."""
    if "$ref" in schema:
        return validate(value, root["$defs"][schema["$ref"].split("/")[-1]], root, path)
    problems = []
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(type_ok(value, n) for n in names):
            return [f"{path}: {value!r:.60} is not {' or '.join(names)}"]
    if "const" in schema and value != schema["const"]:
        problems.append(f"{path}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        problems.append(f"{path}: {value!r} is not one of {schema['enum']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                problems.append(f"{path}: no key '{key}'")
        properties = schema.get("properties", {})
        for key, item in value.items():
            if key in properties:
                problems += validate(item, properties[key], root, f"{path}.{key}")
            elif isinstance(schema.get("additionalProperties"), dict):
                problems += validate(item, schema["additionalProperties"], root, f"{path}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            problems += validate(item, schema["items"], root, f"{path}[{i}]")
    return problems


def run(symshape, args):
    r = subprocess.run([symshape] + args + ["--json", "-"], capture_output=True, text=True)
    if r.returncode not in (0, 3):
        raise RuntimeError(f"symshape {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()[:300]}")
    return json.loads(r.stdout)


def main():
    symshape, root = sys.argv[1], sys.argv[2]
    schemas = {}
    for name in ("infer", "show", "profile", "report"):
        with open(os.path.join(root, "docs", "json", f"{name}.schema.json")) as f:
            schemas[name] = json.load(f)
    # A mutant schema must fail: the check can fail.
    assert validate({"schema": "symshape/infer/1"}, schemas["infer"], schemas["infer"]), "the validator accepts anything"
    models = sorted(glob.glob(os.path.join(root, "examples", "models", "*.onnx")) +
                    glob.glob(os.path.join(root, "tests", "exported", "models", "*.onnx")))
    checked, problems = 0, []
    for model in models:
        infer = run(symshape, ["infer", model])
        symbols = sorted({d for v in infer["values"] for d in (v["dims"] or []) if isinstance(d, str) and d.isidentifier()})
        bind = ",".join(f"{s}=2" for s in symbols)
        docs = [("infer", infer), ("show", run(symshape, ["show", model])),
                ("profile", run(symshape, ["profile", model, "--by", "op"])),
                ("report", run(symshape, ["report", model]))]
        if bind:
            docs.append(("show", run(symshape, ["show", model, "--bind", bind])))
            docs.append(("profile", run(symshape, ["profile", model, "--sweep", f"{symbols[0]}=1..4"])))
            docs.append(("report", run(symshape, ["report", model, "--bind", bind])))
        for name, doc in docs:
            checked += 1
            problems += [f"{os.path.basename(model)} {name}: {p}" for p in validate(doc, schemas[name], schemas[name])]
    for p in problems[:40]:
        print("FAIL", p)
    print(f"check_json_schemas: {checked} documents of {len(models)} models, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
