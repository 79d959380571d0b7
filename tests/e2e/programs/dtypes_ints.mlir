// dtypes_ints: integer arithmetic in i8 / i32 / i64, an i1 result and an f64
// result; the tensors are rank 6 ([2,3,1,4,1,5]) except the rank-0 i64 ones.
//   r0 (i8)  = max(((a * 3 + 100) >>s 1) xor 0x55, -50)   wrapping i8 arithmetic
//   r1 (i32) = (b /s d) * 1000 + (b %s d),  d = (a == 0 ? 7 : sext(a))
//              (truncating signed division and remainder)
//   r2 (i64, rank 0) = c + sum(sext(b) * 3)
//   r3 (i1)  = (sext(a) * 1000 >s b) xor (a <u 100)       (a read as unsigned in <u)
//   r4 (f64) = sitofp(b) * 0.001 + uitofp(a)
#id = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
#scalar = affine_map<(d0, d1, d2, d3, d4, d5) -> ()>

func.func @dtypes_ints(%a: tensor<2x3x1x4x1x5xi8>, %b: tensor<2x3x1x4x1x5xi32>,
                       %c: tensor<i64>)
    -> (tensor<2x3x1x4x1x5xi8>, tensor<2x3x1x4x1x5xi32>, tensor<i64>,
        tensor<2x3x1x4x1x5xi1>, tensor<2x3x1x4x1x5xf64>) {
  %e0 = tensor.empty() : tensor<2x3x1x4x1x5xi8>
  %e1 = tensor.empty() : tensor<2x3x1x4x1x5xi32>
  %e3 = tensor.empty() : tensor<2x3x1x4x1x5xi1>
  %e4 = tensor.empty() : tensor<2x3x1x4x1x5xf64>
  %r0, %r1, %r3, %r4 = linalg.generic {
      indexing_maps = [#id, #id, #id, #id, #id, #id],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%a, %b : tensor<2x3x1x4x1x5xi8>, tensor<2x3x1x4x1x5xi32>)
      outs(%e0, %e1, %e3, %e4 : tensor<2x3x1x4x1x5xi8>, tensor<2x3x1x4x1x5xi32>,
                                tensor<2x3x1x4x1x5xi1>, tensor<2x3x1x4x1x5xf64>) {
  ^bb0(%av: i8, %bv: i32, %o0: i8, %o1: i32, %o3: i1, %o4: f64):
    // r0
    %c3_i8 = arith.constant 3 : i8
    %c100_i8 = arith.constant 100 : i8
    %c85_i8 = arith.constant 85 : i8
    %c1_i8 = arith.constant 1 : i8
    %cm50_i8 = arith.constant -50 : i8
    %t0 = arith.muli %av, %c3_i8 : i8
    %t1 = arith.addi %t0, %c100_i8 : i8
    %t2 = arith.shrsi %t1, %c1_i8 : i8
    %t3 = arith.xori %t2, %c85_i8 : i8
    %v0 = arith.maxsi %t3, %cm50_i8 : i8
    // r1
    %c0_i8 = arith.constant 0 : i8
    %c7_i32 = arith.constant 7 : i32
    %c1000_i32 = arith.constant 1000 : i32
    %a32 = arith.extsi %av : i8 to i32
    %isz = arith.cmpi eq, %av, %c0_i8 : i8
    %d = arith.select %isz, %c7_i32, %a32 : i32
    %q = arith.divsi %bv, %d : i32
    %rem = arith.remsi %bv, %d : i32
    %q1000 = arith.muli %q, %c1000_i32 : i32
    %v1 = arith.addi %q1000, %rem : i32
    // r3
    %a1000 = arith.muli %a32, %c1000_i32 : i32
    %gt = arith.cmpi sgt, %a1000, %bv : i32
    %ult = arith.cmpi ult, %av, %c100_i8 : i8
    %v3 = arith.xori %gt, %ult : i1
    // r4
    %milli = arith.constant 0.001 : f64
    %bf = arith.sitofp %bv : i32 to f64
    %af = arith.uitofp %av : i8 to f64
    %bm = arith.mulf %bf, %milli : f64
    %v4 = arith.addf %bm, %af : f64
    linalg.yield %v0, %v1, %v3, %v4 : i8, i32, i1, f64
  } -> (tensor<2x3x1x4x1x5xi8>, tensor<2x3x1x4x1x5xi32>, tensor<2x3x1x4x1x5xi1>,
        tensor<2x3x1x4x1x5xf64>)

  // r2: full reduction of sext(b) * 3 to a rank-0 i64, seeded with c.
  %r2 = linalg.generic {
      indexing_maps = [#id, #scalar],
      iterator_types = ["reduction", "reduction", "reduction", "reduction", "reduction", "reduction"]}
      ins(%b : tensor<2x3x1x4x1x5xi32>) outs(%c : tensor<i64>) {
  ^bb0(%bv: i32, %acc: i64):
    %c3_i64 = arith.constant 3 : i64
    %b64 = arith.extsi %bv : i32 to i64
    %b3 = arith.muli %b64, %c3_i64 : i64
    %s = arith.addi %acc, %b3 : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  return %r0, %r1, %r2, %r3, %r4
      : tensor<2x3x1x4x1x5xi8>, tensor<2x3x1x4x1x5xi32>, tensor<i64>,
        tensor<2x3x1x4x1x5xi1>, tensor<2x3x1x4x1x5xf64>
}
