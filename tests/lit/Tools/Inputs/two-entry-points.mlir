// Two public functions (two entry points) and a private helper.
func.func @scale(%x: tensor<16xf32> {aotc.name = "in"}) -> (tensor<16xf32> {aotc.name = "out"}) {
  %0 = call @double(%x) : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
func.func @compare(%x: tensor<4x4xi32>, %y: tensor<4x4xi32>) -> tensor<4x4xi1> {
  %0 = tosa.greater %x, %y : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
  return %0 : tensor<4x4xi1>
}
func.func private @double(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = tosa.add %x, %x : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
