// A kernel cut short after its signature (a fuzz mutant of softmax): only a declaration.
func.func @softmax(%X: index, %Y: index, %M: index) attributes {grid = [32]}
