// Two functions calling each other: none is the entry (negative-entry.test).
func.func @a() {
  func.call @b() : () -> ()
  func.return
}
func.func @b() {
  func.call @a() : () -> ()
  func.return
}
