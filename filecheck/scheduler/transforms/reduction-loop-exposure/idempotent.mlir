// RUN: ktir-opt %S/basic.mlir -p reduction-loop-exposure,reduction-loop-exposure | filecheck %S/basic.mlir

/// Running the pass twice gives exactly what basic.mlir checks for one run: every compute
/// generic is one vector now and folds partials in their own type, or folds the lanes of the
/// pass's own partials (the sum's two f32 vectors). (This file has no IR of its own.)
