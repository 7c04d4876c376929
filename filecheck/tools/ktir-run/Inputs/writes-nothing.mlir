// A kernel that computes tile coordinates and stores nothing.
func.func @nothing() attributes {grid = [4, 2]} {
  %x, %y = ktdp.get_compute_tile_id : index, index
  %c8 = arith.constant 8 : index
  %r = arith.muli %x, %c8 : index
  return
}
