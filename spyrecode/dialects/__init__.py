"""The DataflowIR dialects (shared/spec/dataflow-ir.md): `dataflow`, `agen`, `vectorchain`,
`uniform` and `symbol`, one Dialect object per module (dataflow.py, agen.py, vectorchain.py,
uniform.py, symbol.py). Support modules: dataflow_types.py (types, attributes, vector helpers),
directives.py (the custom directives of their assembly formats), syntax.py (build and verify
helpers all five share), agen_access.py and agen_indirect.py (agen's shared pieces and its
indirect/symbolic ops). Registration is lazy, through `spyrecode.get_all_dialects()`.
"""
