#!/usr/bin/python3
"""Development stand-in for `symshape report` while the command is not built:
builds the page's data document (schema symshape/report/1, see
docs/report.md) of a model from `symshape infer --json -o`, `symshape profile
--json` and the inferred model read with onnx, and with --html the page itself
(web/report/report.html with its three placeholders filled, as the command
fills them).

  /usr/bin/python3 tests/report/make_sample_data.py MODEL.onnx --symshape build/bin/symshape \
      [--bind batch=2,seq=128] [--json OUT.json] [--html OUT.html]

Good enough for developing the page: subgraph values carry the dims the
inferred model's value_info holds, and bytes there are unsimplified products.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import onnx
from onnx import TensorProto

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DTYPE_BYTES = {
    'float': 4, 'double': 8, 'float16': 2, 'bfloat16': 2, 'int8': 1, 'uint8': 1, 'int16': 2, 'uint16': 2,
    'int32': 4, 'uint32': 4, 'int64': 8, 'uint64': 8, 'bool': 1, 'complex64': 8, 'complex128': 16,
}


def dtype_name(elem_type):
    if elem_type == 0:
        return None
    name = TensorProto.DataType.Name(elem_type).lower()
    return {'float': 'float', 'double': 'double'}.get(name, name)


def dims_of(type_proto):
    """dims as the contract writes them: int, expression string, None; None for unknown rank."""
    if not type_proto.HasField('tensor_type') or not type_proto.tensor_type.HasField('shape'):
        return None
    out = []
    for d in type_proto.tensor_type.shape.dim:
        if d.HasField('dim_value'):
            out.append(d.dim_value)
        elif d.HasField('dim_param') and d.dim_param:
            out.append(d.dim_param)
        else:
            out.append(None)
    return out


def needs_parens(dim):
    return isinstance(dim, str) and re.search(r'[+\-%^&]|//', dim) is not None


def bytes_of(dtype, dims):
    size = DTYPE_BYTES.get(dtype)
    if size is None or dims is None or any(d is None for d in dims):
        return None
    constant = size
    factors = []
    for d in dims:
        if isinstance(d, int):
            constant *= d
        else:
            factors.append('(' + d + ')' if needs_parens(d) else d)
    if not factors:
        return constant
    if constant == 0:
        return 0
    return '*'.join(([str(constant)] if constant != 1 else []) + factors)


NAME = re.compile(r'`([^`]+)`|([A-Za-z_][A-Za-z0-9_]*)\s*(\()?')


def symbols_of(dim):
    if not isinstance(dim, str):
        return set()
    out = set()
    for m in NAME.finditer(dim):
        if m.group(1):
            out.add(m.group(1))
        elif not m.group(3):
            out.add(m.group(2))
    return out


def attribute_text(a):
    kind = a.type
    if kind == onnx.AttributeProto.INT:
        return str(a.i)
    if kind == onnx.AttributeProto.FLOAT:
        return repr(a.f)
    if kind == onnx.AttributeProto.STRING:
        return json.dumps(a.s.decode('utf-8', 'replace'))
    if kind == onnx.AttributeProto.INTS:
        return '[' + ','.join(str(i) for i in a.ints) + ']'
    if kind == onnx.AttributeProto.FLOATS:
        return '[' + ','.join(repr(f) for f in a.floats) + ']'
    if kind == onnx.AttributeProto.TENSOR:
        return 'tensor %s[%s]' % (dtype_name(a.t.data_type), ','.join(str(d) for d in a.t.dims))
    if kind == onnx.AttributeProto.GRAPH:
        return 'graph %s (%d nodes)' % (a.g.name, len(a.g.node))
    return onnx.AttributeProto.AttributeType.Name(kind).lower()


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode not in (0, 3):
        sys.exit('%s failed (exit %d): %s' % (' '.join(args), r.returncode, r.stderr.strip()))
    return r


def build(model_path, symshape, bind):
    with tempfile.TemporaryDirectory() as tmp:
        inferred_path = os.path.join(tmp, 'inferred.onnx')
        infer = json.loads(run([symshape, 'infer', model_path, '-o', inferred_path, '--allow-errors',
                                '--json', '-', '--quiet']).stdout)
        profile = json.loads(run([symshape, 'profile', model_path, '--json', '-', '--quiet']).stdout or 'null')
        model = onnx.load(inferred_path, load_external_data=False)

    main_types = {v['name']: v for v in infer['values']}
    profile_nodes = profile['nodes'] if profile else []
    profile_bytes = {}
    for n in profile_nodes:
        for o in n['outputs']:
            profile_bytes[o['name']] = o['bytes']['expr']

    values = []

    def add_value(name, dtype, dims, role, parameter=False):
        b = profile_bytes.get(name)
        if b is not None and re.fullmatch(r'-?[0-9]+', b):
            b = int(b)
        values.append({'name': name, 'dtype': dtype, 'dims': dims,
                       'bytes': b if b is not None else bytes_of(dtype, dims), 'role': role, 'parameter': parameter})
        return len(values) - 1

    def graph_doc(g, outer_scope, is_main):
        scope = dict(outer_scope)
        typed = {vi.name: vi for vi in list(g.value_info) + list(g.output) + list(g.input)}
        initializers = {t.name: t for t in g.initializer}
        outputs = {o.name for o in g.output}
        doc = {'name': g.name or ('main' if is_main else ''), 'inputs': [], 'outputs': [], 'initializers': [], 'nodes': []}

        def typed_value(name, role, parameter=False):
            if is_main and name in main_types:
                v = main_types[name]
                return add_value(name, v['dtype'], v['dims'], role, parameter)
            vi = typed.get(name)
            if vi is not None:
                return add_value(name, dtype_name(vi.type.tensor_type.elem_type), dims_of(vi.type), role, parameter)
            return add_value(name, None, None, role, parameter)

        for t in g.initializer:
            scope[t.name] = add_value(t.name, dtype_name(t.data_type), list(t.dims), 'initializer', True)
            doc['initializers'].append(scope[t.name])
        for i in g.input:
            if i.name in initializers:
                continue
            scope[i.name] = typed_value(i.name, 'input')
            doc['inputs'].append(scope[i.name])
        for index, n in enumerate(g.node):
            inputs = [scope.get(x) if x else None for x in n.input]
            node_outputs = []
            for o in n.output:
                if not o:
                    continue
                scope[o] = typed_value(o, 'output' if o in outputs else 'intermediate', n.op_type == 'Constant')
                node_outputs.append(scope[o])
            node = {'name': n.name, 'op_type': n.op_type, 'domain': n.domain, 'inputs': inputs,
                    'outputs': node_outputs,
                    'attributes': [{'name': a.name, 'text': attribute_text(a)} for a in n.attribute],
                    'where': "node #%d '%s' (%s)" % (index, n.name, n.op_type), 'flops': None, 'flops_note': ''}
            if is_main and index < len(profile_nodes) and profile_nodes[index]['name'] == n.name:
                p = profile_nodes[index]
                e = p['flops']['expr'] if p.get('flops') else None
                node['flops'] = int(e) if e is not None and re.fullmatch(r'-?[0-9]+', e) else e
                node['flops_note'] = p.get('flops_note', '')
                if p.get('params'):
                    node['params'] = p['params']['expr']
            subgraphs = [{'attribute': a.name, 'graph': graph_doc(a.g, scope, False)}
                         for a in n.attribute if a.type == onnx.AttributeProto.GRAPH]
            if subgraphs:
                node['subgraphs'] = subgraphs
            doc['nodes'].append(node)
        doc['outputs'] = [scope[o.name] for o in g.output if o.name in scope]
        return doc

    graph = graph_doc(model.graph, {}, True)
    symbols = set()
    for v in values:
        for d in v['dims'] or []:
            symbols |= symbols_of(d)
    totals = {}
    if profile:
        for k, v in profile['totals'].items():
            if isinstance(v, dict) and 'expr' in v:
                e = v['expr']
                totals[k] = int(e) if re.fullmatch(r'-?[0-9]+', e) else e
    return {
        'schema': 'symshape/report/1',
        'model': os.path.basename(model_path),
        'policy': infer['policy'],
        'symbols': sorted(symbols),
        'bindings': bind,
        'facts': infer['facts'],
        'assumptions': infer['assumptions'],
        'contracts': infer['contracts'],
        'diagnostics': infer['diagnostics'],
        'values': values,
        'graph': graph,
        'totals': totals,
    }


def page(data):
    """The report page, its placeholders filled as the command fills them."""
    web = os.path.join(ROOT, 'web', 'report')

    def read(name):
        with open(os.path.join(web, name), encoding='utf-8') as f:
            return f.read()

    html = read('report.html')
    for placeholder, text in (('/*@REPORT_CSS@*/', read('report.css')),
                              ('/*@REPORT_JS@*/', read('expr_eval.js') + '\n' + read('report.js')),
                              ('@REPORT_DATA@', json.dumps(data).replace('</', '<\\/'))):
        at = html.index(placeholder)  # each once, in this order: the inserted text is not searched again
        html = html[:at] + text + html[at + len(placeholder):]
    return html


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('model')
    p.add_argument('--symshape', default=os.path.join(ROOT, 'build', 'bin', 'symshape'))
    p.add_argument('--bind', default='', help='SYM=INT,... the page defaults')
    p.add_argument('--json', help='write the data document here')
    p.add_argument('--html', help='write the page here')
    a = p.parse_args()
    bind = {}
    for item in filter(None, a.bind.split(',')):
        k, v = item.split('=', 1)
        bind[k] = int(v)
    data = build(a.model, a.symshape, bind)
    if a.json:
        with open(a.json, 'w', encoding='utf-8') as f:
            json.dump(data, f, indent=1)
    if a.html:
        with open(a.html, 'w', encoding='utf-8') as f:
            f.write(page(data))


if __name__ == '__main__':
    main()
