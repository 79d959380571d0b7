// reductions: linalg.reduce over different axes of x [6, 40, 50] (f32) and of
// an i32 matrix, several results:
//   sum  over axis 2        -> [6, 40]
//   max  over axis 0        -> [40, 50]
//   mean over axes (0, 2)   -> [40]      (sum, then divide by 300)
//   sum  over all axes      -> f32 (rank 0)
//   signed min of y [6, 40] over axis 1 -> [6] i32
#id1 = affine_map<(d0) -> (d0)>

func.func @reductions(%x: tensor<6x40x50xf32>, %y: tensor<6x40xi32>)
    -> (tensor<6x40xf32>, tensor<40x50xf32>, tensor<40xf32>, tensor<f32>, tensor<6xi32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %imax = arith.constant 2147483647 : i32

  %e_sum = tensor.empty() : tensor<6x40xf32>
  %i_sum = linalg.fill ins(%zero : f32) outs(%e_sum : tensor<6x40xf32>) -> tensor<6x40xf32>
  %sum = linalg.reduce ins(%x : tensor<6x40x50xf32>) outs(%i_sum : tensor<6x40xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }

  %e_max = tensor.empty() : tensor<40x50xf32>
  %i_max = linalg.fill ins(%ninf : f32) outs(%e_max : tensor<40x50xf32>) -> tensor<40x50xf32>
  %max = linalg.reduce ins(%x : tensor<6x40x50xf32>) outs(%i_max : tensor<40x50xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
    }

  %e_ms = tensor.empty() : tensor<40xf32>
  %i_ms = linalg.fill ins(%zero : f32) outs(%e_ms : tensor<40xf32>) -> tensor<40xf32>
  %msum = linalg.reduce ins(%x : tensor<6x40x50xf32>) outs(%i_ms : tensor<40xf32>) dimensions = XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX[0, 2]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  %e_mean = tensor.empty() : tensor<40xf32>
  %mean = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%msum : tensor<40xf32>) outs(%e_mean : tensor<40xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.constant 300.0 : f32
    %r = arith.divf %in, %n : f32
    linalg.yield %r : f32
  } -> tensor<40xf32>

  %e_all = tensor.empty() : tensor<f32>
  %i_all = linalg.fill ins(%zero : f32) outs(%e_all : tensor<f32>) -> tensor<f32>
  %all = linalg.reduce ins(%x : tensor<6x40x50xf32>) outs(%i_all : tensor<f32>) dimensions = [0, 1, 2]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }

  %e_min = tensor.empty() : tensor<6xi32>
  %i_min = linalg.fill ins(%imax : i32) outs(%e_min : tensor<6xi32>) -> tensor<6xi32>
  %min = linalg.reduce ins(%y : tensor<6x40xi32>) outs(%i_min : tensor<6xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      %r = arith.minsi %in, %acc : i32
      linalg.yield %r : i32
    }
  return %sum, %max, %mean, %all, %min
      : tensor<6x40xf32>, tensor<40x50xf32>, tensor<40xf32>, tensor<f32>, tensor<6xi32>
}
