// RUN: ktir-opt %s -p 'bind-arguments{values="BLOCK_SIZE=128","n=-3","eps=0.5"}' | filecheck %s
// RUN: ktir-opt %s -p 'bind-arguments{values="BLOCK_SIZE=128","n=-3","eps=0.5"},bind-arguments{values="BLOCK_SIZE=128","n=-3","eps=0.5"}' | filecheck %s

/// Bound scalar arguments read constants of their type at the top of the kernel; the
/// signature is kept (the launch still passes them), and unbound arguments are untouched.
/// Idempotent: a bound argument has no uses left.

// CHECK-LABEL: func.func @k(
// CHECK-SAME:    %[[X:[^:]*]]: index, %[[BS:[^:]*]]: index, %[[N:[^:]*]]: i32, %[[EPS:[^:]*]]: f32, %[[M:[^:]*]]: index)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[CN:.*]] = arith.constant -3 : i32
// CHECK-NEXT:    %[[CE:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:    %[[ID:.*]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    arith.muli %[[ID]], %[[C]] : index
// CHECK-NEXT:    arith.addi %[[CN]], %[[CN]] : i32
// CHECK-NEXT:    arith.addf %[[CE]], %[[CE]] : f32
// CHECK-NEXT:    arith.addi %[[M]], %[[X]] : index
func.func @k(%x: index, %BLOCK_SIZE: index, %n: i32, %eps: f32, %m: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %o = arith.muli %id, %BLOCK_SIZE : index
  %n2 = arith.addi %n, %n : i32
  %e2 = arith.addf %eps, %eps : f32
  %mx = arith.addi %m, %x : index
  return
}
