#!/usr/bin/python3
"""Checks `symshape report` on every model in examples/models/ and tests/exported/models/:

- the page (-o) is the template of web/report/ with its placeholders replaced by
  report.css, expr_eval.js + report.js and the data, and the data element holds no
  end tag ("</") nor "<!--": nothing in it can end the element early;
- the data parses as JSON, has "schema": "symshape/report/1", and is the document
  `--json -` writes;
- the values of the main graph have the dims `symshape show --all --json` gives the
  same model; "symbols" are the names in every value's dims; every index a graph or
  node holds is a value of the right graph (subgraph nodes nested under their node,
  each "where" naming its subgraph); --bind comes back as "bindings";
- a model whose names hold "</script>" and "<!--" (made here with onnx) keeps them;
- a copy of the command elsewhere writes the same page (it reads no file of web/).

    check_report.py SYMSHAPE ROOT

Exit status 1 on any mismatch.
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

DATA_START = '<script type="application/json" id="symshape-data">'
problems = []


def fail(what):
    problems.append(what)


def run(args, cwd=None):
    r = subprocess.run(args, capture_output=True, text=True, cwd=cwd)
    if r.returncode not in (0, 3):
        raise RuntimeError(f"{' '.join(args)}: exit {r.returncode}: {r.stderr.strip()[:300]}")
    return r.stdout


def web_file(root, name):
    with open(os.path.join(root, "web", "report", name), encoding="utf-8") as f:
        return f.read()


def page_data(page, where):
    """The text of the page's data element, checked to be the template around it."""
    start = page.find(DATA_START)
    if start < 0:
        fail(f"{where}: no data element")
        return None
    start += len(DATA_START)
    end = page.find("</script", start)
    data = page[start:end]
    if "</" in data or "<!--" in data:
        fail(f"{where}: the data holds '</' or '<!--'")
    return data


def check_page(root, page, where):
    """The page is the template with the style, the scripts and the data in place."""
    template = web_file(root, "report.html")
    css, js = web_file(root, "report.css"), web_file(root, "expr_eval.js") + "\n" + web_file(root, "report.js")
    data = page_data(page, where)
    if data is None:
        return None
    expected = template.replace("/*@REPORT_CSS@*/", css, 1).replace("/*@REPORT_JS@*/", "\0js\0", 1)
    expected = expected.replace("@REPORT_DATA@", data, 1).replace("\0js\0", js, 1)
    if page != expected:
        fail(f"{where}: the page is not the template with report.css, expr_eval.js + report.js and the data")
    return json.loads(data)


def main_graph_values(doc):
    g = doc["graph"]
    indexes = list(g["inputs"]) + list(g["initializers"])
    for n in g["nodes"]:
        indexes += [i for i in n["outputs"] if i is not None]
    return {doc["values"][i]["name"]: doc["values"][i] for i in indexes}


def check_graph(doc, graph, where, scope=""):
    """Every index is a value; nested graphs name their node in "where"."""
    count = len(doc["values"])
    for key in ("inputs", "outputs", "initializers"):
        for i in graph[key]:
            if not (isinstance(i, int) and 0 <= i < count):
                fail(f"{where}: graph '{graph['name']}' {key} index {i!r} out of range")
    for k, n in enumerate(graph["nodes"]):
        for i in n["inputs"] + n["outputs"]:
            if i is not None and not (isinstance(i, int) and 0 <= i < count):
                fail(f"{where}: node '{n['name']}' index {i!r} out of range")
        if not n["where"].startswith(f"node #{k}") or not n["where"].endswith(scope):
            fail(f"{where}: node '{n['name']}' where {n['where']!r} (expected #{k}, ending {scope!r})")
        for sub in n["subgraphs"]:
            check_graph(doc, sub["graph"], where, f" in subgraph '{sub['graph']['name']}' of {n['where']}")


def symbols_of(doc):
    names = set()
    for v in doc["values"]:
        for d in v["dims"] or []:
            if isinstance(d, str):
                names |= set(re.findall(r"`[^`]*`|[A-Za-z_][A-Za-z0-9_]*", d)) - {"min", "max"}
    return sorted(n.strip("`") for n in names)


def check_model(symshape, root, model, tmp):
    name = os.path.basename(model)
    html = os.path.join(tmp, "report.html")
    run([symshape, "report", model, "-o", html, "-q"])
    with open(html, encoding="utf-8") as f:
        doc = check_page(root, f.read(), name)
    if doc is None:
        return
    if doc.get("schema") != "symshape/report/1":
        fail(f"{name}: schema {doc.get('schema')!r}")
    if json.loads(run([symshape, "report", model, "--json", "-", "-q"])) != doc:
        fail(f"{name}: --json - differs from the page's data")
    show = json.loads(run([symshape, "show", model, "--all", "--json", "-", "-q"]))
    values = main_graph_values(doc)
    for v in show["values"]:
        if v["name"] not in values:
            fail(f"{name}: show's value '{v['name']}' is not in the report's main graph")
        elif values[v["name"]]["dims"] != v["dims"] or values[v["name"]]["dtype"] != v["dtype"]:
            fail(f"{name}: '{v['name']}' is {values[v['name']]['dtype']} {values[v['name']]['dims']} "
                 f"in the report, {v['dtype']} {v['dims']} in show")
    if doc["symbols"] != symbols_of(doc):
        fail(f"{name}: symbols {doc['symbols']} are not those of the dims {symbols_of(doc)}")
    check_graph(doc, doc["graph"], name)
    return doc


def check_bindings(symshape, model):
    doc = json.loads(run([symshape, "report", model, "--json", "-", "-q", "--bind", "batch=2,seq=7"]))
    if doc["bindings"] != {"batch": 2, "seq": 7}:
        fail(f"--bind: bindings {doc['bindings']}")


def check_subgraphs(doc):
    """control_flow.onnx: If's branches nested under it, their values in "values"."""
    ifs = [n for n in doc["graph"]["nodes"] if n["op_type"] == "If"]
    if len(ifs) != 1 or sorted(s["attribute"] for s in ifs[0]["subgraphs"]) != ["else_branch", "then_branch"]:
        fail("control_flow.onnx: no If with its two branches nested")
        return
    for sub in ifs[0]["subgraphs"]:
        out = doc["values"][sub["graph"]["outputs"][0]]
        if out["dims"] != ["batch", 16] or out["role"] != "output":
            fail(f"control_flow.onnx: branch output {out}")


def check_names_with_end_tags(symshape, root, tmp):
    import onnx
    from onnx import TensorProto, helper
    evil = "</script><!--<script>"
    node = helper.make_node("Relu", ["x"], [evil], name=evil + "node")
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
                              [helper.make_tensor_value_info(evil, TensorProto.FLOAT, None)])
    path = os.path.join(tmp, "end_tags.onnx")
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    html = os.path.join(tmp, "end_tags.html")
    run([symshape, "report", path, "-o", html, "-q"])
    with open(html, encoding="utf-8") as f:
        doc = check_page(root, f.read(), "end_tags.onnx")
    if doc and (doc["graph"]["nodes"][0]["name"] != evil + "node" or doc["values"][1]["name"] != evil):
        fail("end_tags.onnx: the names did not come back")


def check_copied_command(symshape, model, tmp):
    """A copy of the command, run from elsewhere, writes the same page."""
    copy_dir = os.path.join(tmp, "elsewhere")
    os.mkdir(copy_dir)
    copy = shutil.copy(symshape, os.path.join(copy_dir, "symshape"))
    run([symshape, "report", model, "-o", os.path.join(tmp, "a.html"), "-q"])
    run([copy, "report", model, "-o", os.path.join(copy_dir, "b.html"), "-q"], cwd=copy_dir)
    with open(os.path.join(tmp, "a.html"), "rb") as a, open(os.path.join(copy_dir, "b.html"), "rb") as b:
        if a.read() != b.read():
            fail("a copy of the command elsewhere writes another page")


def main():
    symshape, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    models = sorted(glob.glob(os.path.join(root, "examples", "models", "*.onnx")) +
                    glob.glob(os.path.join(root, "tests", "exported", "models", "*.onnx")))
    if not models:
        fail("no models found")
    with tempfile.TemporaryDirectory() as tmp:
        docs = {os.path.basename(m): check_model(symshape, root, m, tmp) for m in models}
        check_subgraphs(docs["control_flow.onnx"])
        check_bindings(symshape, os.path.join(root, "examples", "models", "gpt2_like.onnx"))
        check_names_with_end_tags(symshape, root, tmp)
        check_copied_command(symshape, models[0], tmp)
    for p in problems[:40]:
        print("FAIL", p)
    print(f"check_report: {len(models)} models, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
