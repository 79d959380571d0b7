// RUN: aotc-opt %s -split-input-file -aotc-lower-vector-ops | FileCheck %s

// vector.contract becomes one FMA per accumulator row (outer product):
// broadcast A[i, 0] times row B[0, :] plus row C[i, :].

// CHECK-LABEL: func.func @contract
// CHECK-SAME:    (%[[A:.*]]: vector<4x1xf32>, %[[B:.*]]: vector<1x8xf32>, %[[C:.*]]: vector<4x8xf32>)
// CHECK-NOT:     vector.contract
// CHECK:         %[[BROW:.*]] = vector.extract %[[B]][0] : vector<8xf32> from vector<1x8xf32>
// CHECK:         %[[A0:.*]] = vector.extract %[[A]][0, 0] : f32 from vector<4x1xf32>
// CHECK:         %[[A0B:.*]] = vector.broadcast %[[A0]] : f32 to vector<8xf32>
// CHECK:         %[[C0:.*]] = vector.extract %[[C]][0] : vector<8xf32> from vector<4x8xf32>
// CHECK:         %[[R0:.*]] = vector.fma %[[A0B]], %[[BROW]], %[[C0]] : vector<8xf32>
// CHECK:         vector.insert %[[R0]], %{{.*}} [0] : vector<8xf32> into vector<4x8xf32>
// CHECK-COUNT-3: vector.fma %{{.*}}, %[[BROW]], %{{.*}} : vector<8xf32>
// CHECK-NOT:     vector.fma
// CHECK-NOT:     vector.contract
// CHECK:         return
func.func @contract(%a: vector<4x1xf32>, %b: vector<1x8xf32>, %c: vector<4x8xf32>) -> vector<4x8xf32> {
  %0 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                        iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
       %a, %b, %c : vector<4x1xf32>, vector<1x8xf32> into vector<4x8xf32>
  return %0 : vector<4x8xf32>
}

// -----

// An inner reduction becomes elementwise adds of 1-D vectors (inner-parallel
// strategy): 8 adds of vector<4xf32>, the first one onto the accumulator.

// CHECK-LABEL: func.func @multi_reduction
// CHECK-SAME:    (%{{.*}}: vector<4x8xf32>, %[[ACC:.*]]: vector<4xf32>)
// CHECK-NOT:     vector.multi_reduction
// CHECK:         %[[R:.*]] = arith.addf %{{.*}}, %[[ACC]] : vector<4xf32>
// CHECK-COUNT-7: arith.addf %{{.*}} : vector<4xf32>
// CHECK-NOT:     vector.multi_reduction
// CHECK:         return
func.func @multi_reduction(%a: vector<4x8xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  %0 = vector.multi_reduction <add>, %a, %acc [1] : vector<4x8xf32> to vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// Transposes become element moves; broadcasts become row inserts.

// CHECK-LABEL: func.func @transpose
// CHECK-NOT:     vector.transpose
// CHECK-COUNT-8: vector.extract %{{.*}} : f32 from vector<2x4xf32>
// CHECK-NOT:     vector.transpose
// CHECK-NOT:     vector.shuffle
// CHECK:         return
func.func @transpose(%a: vector<2x4xf32>) -> vector<4x2xf32> {
  %0 = vector.transpose %a, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
  return %0 : vector<4x2xf32>
}

// A 16 x 16 transpose of f32 (aotc-tile-and-vectorize's transpose tiles):
// 16-element rows are shuffled in registers, no element moves (and no
// shuffle of the flattened 256 elements).

// CHECK-LABEL: func.func @transpose_16x16
// CHECK-NOT:     vector.extract %{{.*}} : f32
// CHECK:         vector.shuffle %{{.*}}, %{{.*}} [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
// CHECK-NOT:     vector.transpose
// CHECK-NOT:     vector.extract %{{.*}} : f32
// CHECK-NOT:     vector<256xf32>
// CHECK:         return
func.func @transpose_16x16(%a: vector<16x16xf32>) -> vector<16x16xf32> {
  %0 = vector.transpose %a, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
  return %0 : vector<16x16xf32>
}

// An 8 x 32 tile (8 pixels x 32 channel lanes of
// aotc-channel-lane-convolutions, stored into an NCHW output), with unit
// dims around it: its two 8 x 16 blocks stacked into one 16 x 16 square,
// shuffled as above; row j of the square holds rows j and 16 + j of the
// result (8 elements each). No element moves.

// CHECK-LABEL: func.func @transpose_8x32
// CHECK-NOT:     vector.extract %{{.*}} : f32
// CHECK:         vector.shuffle %{{.*}}, %{{.*}} [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
// CHECK:         vector.extract_strided_slice %{{.*}} {offsets = [8], sizes = [8], strides = [1]} : vector<16xf32> to vector<8xf32>
// CHECK-NOT:     vector.transpose
// CHECK-NOT:     vector.extract %{{.*}} : f32
// CHECK-NOT:     vector<256xf32>
// CHECK:         return
func.func @transpose_8x32(%a: vector<1x8x32xf32>) -> vector<32x1x8xf32> {
  %0 = vector.transpose %a, [2, 0, 1] : vector<1x8x32xf32> to vector<32x1x8xf32>
  return %0 : vector<32x1x8xf32>
}

// A 5 x 32 tile (a row's remainder of 5 pixels): the same square, each
// block's 5 rows 8 apart (the rows between them zero); row j of the square
// gives the 5 elements at 0 and at 8 for rows j and 16 + j.

// CHECK-LABEL: func.func @transpose_5x32
// CHECK-NOT:     vector.extract %{{.*}} : f32
// CHECK:         vector.shuffle %{{.*}}, %{{.*}} [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
// CHECK:         vector.extract_strided_slice %{{.*}} {offsets = [8], sizes = [5], strides = [1]} : vector<16xf32> to vector<5xf32>
// CHECK-NOT:     vector.transpose
// CHECK-NOT:     vector.extract %{{.*}} : f32
// CHECK-NOT:     vector<160xf32>
// CHECK:         return
func.func @transpose_5x32(%a: vector<1x5x32xf32>) -> vector<32x1x5xf32> {
  %0 = vector.transpose %a, [2, 0, 1] : vector<1x5x32xf32> to vector<32x1x5xf32>
  return %0 : vector<32x1x5xf32>
}

// CHECK-LABEL: func.func @broadcast
// CHECK-SAME:    (%[[V:.*]]: vector<8xf32>)
// CHECK-NOT:     vector.broadcast
// CHECK:         %[[I0:.*]] = vector.insert %[[V]], %{{.*}} [0] : vector<8xf32> into vector<3x8xf32>
// CHECK:         %[[I1:.*]] = vector.insert %[[V]], %[[I0]] [1]
// CHECK:         %[[I2:.*]] = vector.insert %[[V]], %[[I1]] [2]
// CHECK:         return %[[I2]]
func.func @broadcast(%a: vector<8xf32>) -> vector<3x8xf32> {
  %0 = vector.broadcast %a : vector<8xf32> to vector<3x8xf32>
  return %0 : vector<3x8xf32>
}

// -----

// In-bounds 1-D transfers become plain vector loads and stores; leading unit
// dimensions and broadcasting permutation maps disappear.

// CHECK-LABEL: func.func @transfer_1d
// CHECK-SAME:    (%[[M:.*]]: memref<4x8xf32>, %[[I:.*]]: index)
// CHECK:         %[[V:.*]] = vector.load %[[M]][%[[I]], %{{.*}}] : memref<4x8xf32>, vector<8xf32>
// CHECK:         %[[E:.*]] = math.exp %[[V]] : vector<8xf32>
// CHECK:         vector.store %[[E]], %[[M]][%[[I]], %{{.*}}] : memref<4x8xf32>, vector<8xf32>
// CHECK-NOT:     vector.transfer_
func.func @transfer_1d(%m: memref<4x8xf32>, %i: index) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %p = ub.poison : f32
  %0 = vector.transfer_read %m[%i, %c0], %p {in_bounds = [true]} : memref<4x8xf32>, vector<8xf32>
  %1 = math.exp %0 : vector<8xf32>
  vector.transfer_write %1, %m[%i, %c0] {in_bounds = [true]} : vector<8xf32>, memref<4x8xf32>
  return %0 : vector<8xf32>
}

// CHECK-LABEL: func.func @unit_dim
// CHECK:         %[[V:.*]] = vector.load %{{.*}} : memref<4x8xf32>, vector<8xf32>
// CHECK:         arith.addf %[[V]], %[[V]] : vector<8xf32>
// CHECK-NOT:     vector.transfer_read
func.func @unit_dim(%m: memref<4x8xf32>, %i: index) -> vector<1x8xf32> {
  %c0 = arith.constant 0 : index
  %p = ub.poison : f32
  %0 = vector.transfer_read %m[%i, %c0], %p {in_bounds = [true, true]} : memref<4x8xf32>, vector<1x8xf32>
  %1 = arith.addf %0, %0 : vector<1x8xf32>
  return %1 : vector<1x8xf32>
}

// CHECK-LABEL: func.func @broadcast_map
// CHECK:         %[[V:.*]] = vector.load %{{.*}} : memref<8xf32>, vector<8xf32>
// CHECK-COUNT-4: vector.insert %[[V]]
// CHECK-NOT:     vector.transfer_read
func.func @broadcast_map(%m: memref<8xf32>) -> vector<4x8xf32> {
  %c0 = arith.constant 0 : index
  %p = ub.poison : f32
  %0 = vector.transfer_read %m[%c0], %p {in_bounds = [true, true], permutation_map = affine_map<(d0) -> (0, d0)>} : memref<8xf32>, vector<4x8xf32>
  return %0 : vector<4x8xf32>
}

// -----

// 1-D arithmetic is already what LLVM wants: unchanged.

// CHECK-LABEL: func.func @one_d
// CHECK-SAME:    (%[[A:.*]]: vector<16xf32>, %[[B:.*]]: vector<16xf32>)
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[A]], %[[B]] : vector<16xf32>
// CHECK-NEXT:    %[[F:.*]] = vector.fma %[[A]], %[[B]], %[[S]] : vector<16xf32>
// CHECK-NEXT:    return %[[F]]
func.func @one_d(%a: vector<16xf32>, %b: vector<16xf32>) -> vector<16xf32> {
  %0 = arith.addf %a, %b : vector<16xf32>
  %1 = vector.fma %a, %b, %0 : vector<16xf32>
  return %1 : vector<16xf32>
}

// -----

// A read with innermost stride 2 (a stride-2 convolution window): per row,
// two contiguous loads through a stride-1 view, both inside the span of the
// strided elements (31 floats), and one shuffle of the even elements,
// instead of 16 scalar loads per row.

// CHECK-LABEL: func.func @strided_read
// CHECK-SAME:    (%[[M:.*]]: memref<2x16xf32, strided<[66, 2], offset: ?>>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C15:.*]] = arith.constant 15 : index
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %[[M]]
// CHECK:         %[[VIEW:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [2, 31], strides: [66, 1]
// CHECK:         %[[J2:.*]] = arith.muli %[[J]], %[[C2]] : index
// CHECK:         %[[LO:.*]] = vector.load %[[VIEW]][%[[I]], %[[J2]]] : {{.*}}, vector<16xf32>
// CHECK:         %[[J15:.*]] = arith.addi %[[J2]], %[[C15]] : index
// CHECK:         %[[HI:.*]] = vector.load %[[VIEW]][%[[I]], %[[J15]]] : {{.*}}, vector<16xf32>
// CHECK:         vector.shuffle %[[LO]], %[[HI]] [0, 2, 4, 6, 8, 10, 12, 14, 17, 19, 21, 23, 25, 27, 29, 31] : vector<16xf32>, vector<16xf32>
// CHECK:         %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK:         vector.load %[[VIEW]][%[[I1]], %[[J2]]]
// CHECK-NOT:     vector.transfer_read
// CHECK:         return
func.func @strided_read(%m: memref<2x16xf32, strided<[66, 2], offset: ?>>, %i: index, %j: index) -> vector<2x16xf32> {
  %p = ub.poison : f32
  %v = vector.transfer_read %m[%i, %j], %p {in_bounds = [true, true]} : memref<2x16xf32, strided<[66, 2], offset: ?>>, vector<2x16xf32>
  return %v : vector<2x16xf32>
}

// -----

// Rows of 14 and 7 lanes (stride-2 windows over 28- and 14-wide outputs)
// are loaded as whole registers of 16 and 8 lanes, the second ending at the
// span's end (elements 11..26 of 27, 5..12 of 13), not as vector<14> and
// vector<7> loads (three loads and two inserts each).

// CHECK-LABEL: func.func @strided_read_partial_rows
// CHECK-DAG:     %[[C11:.*]] = arith.constant 11 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK:         memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [27], strides: [1]
// CHECK:         %[[LO:.*]] = vector.load %{{.*}}[%[[J2:.*]]] : {{.*}}, vector<16xf32>
// CHECK:         %[[J11:.*]] = arith.addi %[[J2]], %[[C11]] : index
// CHECK:         %[[HI:.*]] = vector.load %{{.*}}[%[[J11]]] : {{.*}}, vector<16xf32>
// CHECK:         vector.shuffle %[[LO]], %[[HI]] [0, 2, 4, 6, 8, 10, 12, 14, 21, 23, 25, 27, 29, 31] : vector<16xf32>, vector<16xf32>
// CHECK:         memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [13], strides: [1]
// CHECK:         %[[LO7:.*]] = vector.load %{{.*}}[%[[K2:.*]]] : {{.*}}, vector<8xf32>
// CHECK:         %[[K5:.*]] = arith.addi %[[K2]], %[[C5]] : index
// CHECK:         %[[HI7:.*]] = vector.load %{{.*}}[%[[K5]]] : {{.*}}, vector<8xf32>
// CHECK:         vector.shuffle %[[LO7]], %[[HI7]] [0, 2, 4, 6, 11, 13, 15] : vector<8xf32>, vector<8xf32>
// CHECK-NOT:     vector.transfer_read
// CHECK:         return
func.func @strided_read_partial_rows(%m: memref<14xf32, strided<[2], offset: ?>>, %n: memref<7xf32, strided<[2], offset: ?>>, %j: index, %k: index) -> (vector<14xf32>, vector<7xf32>) {
  %p = ub.poison : f32
  %v = vector.transfer_read %m[%j], %p {in_bounds = [true]} : memref<14xf32, strided<[2], offset: ?>>, vector<14xf32>
  %w = vector.transfer_read %n[%k], %p {in_bounds = [true]} : memref<7xf32, strided<[2], offset: ?>>, vector<7xf32>
  return %v, %w : vector<14xf32>, vector<7xf32>
}

// -----

// The three taps of a 3-wide stride-2 window (a depthwise convolution's
// register tile: views of one [33] window of a 56-element input row, at
// columns 0, 1, 2) load through a view of the whole row, from the even
// element at or before each span: kw = 1 and kw = 2 load the same two
// registers (elements 2..17 and 18..33) and pick even and odd lanes; kw = 0
// loads 0..15 and 16..31. Near the row's end (11 lanes from element 33) the
// second load ends at the row's end (40..55), not at the span's (51).

// CHECK-LABEL: func.func @strided_taps
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C18:.*]] = arith.constant 18 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C40:.*]] = arith.constant 40 : index
// CHECK:         %[[V0:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [56], strides: [1]
// CHECK:         %[[A:.*]] = vector.load %[[V0]][%[[C0]]]
// CHECK:         %[[B:.*]] = vector.load %[[V0]][%[[C16]]]
// CHECK:         vector.shuffle %[[A]], %[[B]] [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK:         %[[V1:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [56], strides: [1]
// CHECK:         %[[C:.*]] = vector.load %[[V1]][%[[C2]]]
// CHECK:         %[[D:.*]] = vector.load %[[V1]][%[[C18]]]
// CHECK:         vector.shuffle %[[C]], %[[D]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK:         %[[V2:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [56], strides: [1]
// CHECK:         %[[E:.*]] = vector.load %[[V2]][%[[C2]]]
// CHECK:         %[[F:.*]] = vector.load %[[V2]][%[[C18]]]
// CHECK:         vector.shuffle %[[E]], %[[F]] [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK:         %[[V3:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [56], strides: [1]
// CHECK:         %[[G:.*]] = vector.load %[[V3]][%[[C32]]]
// CHECK:         %[[H:.*]] = vector.load %[[V3]][%[[C40]]]
// CHECK:         vector.shuffle %[[G]], %[[H]] [1, 3, 5, 7, 9, 11, 13, 15, 25, 27, 29] : vector<16xf32>, vector<16xf32>
// CHECK-NOT:     vector.transfer_read
// CHECK:         return
func.func @strided_taps(%x: memref<56xf32>) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<11xf32>) {
  %p = ub.poison : f32
  %c0 = arith.constant 0 : index
  %w = memref.subview %x[1] [33] [1] : memref<56xf32> to memref<33xf32, strided<[1], offset: 1>>
  %t0 = memref.subview %w[0] [16] [2] : memref<33xf32, strided<[1], offset: 1>> to memref<16xf32, strided<[2], offset: 1>>
  %t1 = memref.subview %w[1] [16] [2] : memref<33xf32, strided<[1], offset: 1>> to memref<16xf32, strided<[2], offset: 2>>
  %t2 = memref.subview %w[2] [16] [2] : memref<33xf32, strided<[1], offset: 1>> to memref<16xf32, strided<[2], offset: 3>>
  %a = vector.transfer_read %t0[%c0], %p {in_bounds = [true]} : memref<16xf32, strided<[2], offset: 1>>, vector<16xf32>
  %b = vector.transfer_read %t1[%c0], %p {in_bounds = [true]} : memref<16xf32, strided<[2], offset: 2>>, vector<16xf32>
  %c = vector.transfer_read %t2[%c0], %p {in_bounds = [true]} : memref<16xf32, strided<[2], offset: 3>>, vector<16xf32>
  %r = memref.subview %x[33] [11] [2] : memref<56xf32> to memref<11xf32, strided<[2], offset: 33>>
  %d = vector.transfer_read %r[%c0], %p {in_bounds = [true]} : memref<11xf32, strided<[2], offset: 33>>, vector<11xf32>
  return %a, %b, %c, %d : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<11xf32>
}

// -----

// Taps at dynamic columns (a tile loop's, folded into the taps' views): the
// span's parity is known (2j, 2j + 1, 2j + 2) and so is the loop's last
// column, so each view starts at the even element at or before its span and
// holds two whole registers (32 elements, in the 111-element row for every
// j <= 32): kw = 0 and kw = 1 load the same two, at 2j and 2j + 16. In a
// 70-element row the last j's registers would pass the row's end: only
// the span (31 elements) is loaded.

#even = affine_map<(d0) -> (d0 * 2)>
#odd = affine_map<(d0) -> (d0 * 2 + 1)>
#next = affine_map<(d0) -> (d0 * 2 + 2)>
// CHECK-LABEL: func.func @strided_taps_dynamic
// CHECK:         scf.for
// CHECK:           %[[B0:.*]], %[[O0:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %{{.*}} : memref<16xf32, strided<[2], offset: ?>>
// CHECK:           %[[V0:.*]] = memref.reinterpret_cast %[[B0]] to offset: [%[[O0]]], sizes: [32], strides: [1]
// CHECK:           vector.load %[[V0]][%[[C0:.*]]]
// CHECK:           vector.load %[[V0]][%[[C16:.*]]]
// CHECK:           vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK:           %[[B1:.*]], %[[O1:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata
// CHECK:           %[[S1:.*]] = arith.subi %[[O1]], %[[ONE:.*]] : index
// CHECK:           %[[V1:.*]] = memref.reinterpret_cast %[[B1]] to offset: [%[[S1]]], sizes: [32], strides: [1]
// CHECK:           vector.load %[[V1]][%[[C0]]]
// CHECK:           vector.load %[[V1]][%[[C16]]]
// CHECK:           vector.shuffle %{{.*}}, %{{.*}} [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK:           memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [32], strides: [1]
// CHECK:           memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [31], strides: [1]
// CHECK:           vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK-NOT:       vector.transfer_read
func.func @strided_taps_dynamic(%x: memref<111xf32>, %y: memref<70xf32>, %out: memref<4x16xf32>) {
  %p = ub.poison : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  scf.for %j = %c0 to %c48 step %c16 {
    %o0 = affine.apply #even(%j)
    %o1 = affine.apply #odd(%j)
    %o2 = affine.apply #next(%j)
    %t0 = memref.subview %x[%o0] [16] [2] : memref<111xf32> to memref<16xf32, strided<[2], offset: ?>>
    %t1 = memref.subview %x[%o1] [16] [2] : memref<111xf32> to memref<16xf32, strided<[2], offset: ?>>
    %t2 = memref.subview %x[%o2] [16] [2] : memref<111xf32> to memref<16xf32, strided<[2], offset: ?>>
    %u0 = memref.subview %y[%o0] [16] [2] : memref<70xf32> to memref<16xf32, strided<[2], offset: ?>>
    %a = vector.transfer_read %t0[%c0], %p {in_bounds = [true]} : memref<16xf32, strided<[2], offset: ?>>, vector<16xf32>
    %b = vector.transfer_read %t1[%c0], %p {in_bounds = [true]} : memref<16xf32, strided<[2], offset: ?>>, vector<16xf32>
    %c = vector.transfer_read %t2[%c0], %p {in_bounds = [true]} : memref<16xf32, strided<[2], offset: ?>>, vector<16xf32>
    %d = vector.transfer_read %u0[%c0], %p {in_bounds = [true]} : memref<16xf32, strided<[2], offset: ?>>, vector<16xf32>
    vector.transfer_write %a, %out[%c0, %c0] {in_bounds = [true]} : vector<16xf32>, memref<4x16xf32>
    vector.transfer_write %b, %out[%c1, %c0] {in_bounds = [true]} : vector<16xf32>, memref<4x16xf32>
    vector.transfer_write %c, %out[%c2, %c0] {in_bounds = [true]} : vector<16xf32>, memref<4x16xf32>
    vector.transfer_write %d, %out[%c3, %c0] {in_bounds = [true]} : vector<16xf32>, memref<4x16xf32>
  }
  return
}

// -----

// A read that may run out of bounds keeps the generic lowering.

// CHECK-LABEL: func.func @strided_read_out_of_bounds
// CHECK:         vector.transfer_read
// CHECK-NOT:     vector.load
func.func @strided_read_out_of_bounds(%m: memref<16xf32, strided<[2], offset: ?>>, %j: index) -> vector<16xf32> {
  %p = ub.poison : f32
  %v = vector.transfer_read %m[%j], %p : memref<16xf32, strided<[2], offset: ?>>, vector<16xf32>
  return %v : vector<16xf32>
}

// -----

// The reduction of one row is a halving tree (16 -> 8 -> 4 -> 2 -> 1 lanes),
// combined with the accumulator once; not 16 dependent scalar steps.

// CHECK-LABEL: func.func @row_reduction
// CHECK-SAME:    (%[[V:.*]]: vector<1x16xf32>, %[[ACC:.*]]: vector<1xf32>)
// CHECK-NOT:     vector.multi_reduction
// CHECK:         %[[ROW:.*]] = vector.extract %[[V]][0] : vector<16xf32> from vector<1x16xf32>
// CHECK-DAG:     %[[L8:.*]] = vector.shuffle %[[ROW]], %[[ROW]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<16xf32>, vector<16xf32>
// CHECK-DAG:     %[[H8:.*]] = vector.shuffle %[[ROW]], %[[ROW]] [8, 9, 10, 11, 12, 13, 14, 15] : vector<16xf32>, vector<16xf32>
// CHECK:         %[[M8:.*]] = arith.maximumf %[[L8]], %[[H8]] : vector<8xf32>
// CHECK:         arith.maximumf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:         arith.maximumf %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK:         %[[M1:.*]] = arith.maximumf %{{.*}}, %{{.*}} : vector<1xf32>
// CHECK-DAG:     %[[S:.*]] = vector.extract %[[M1]][0] : f32 from vector<1xf32>
// CHECK-DAG:     %[[A:.*]] = vector.extract %[[ACC]][0] : f32 from vector<1xf32>
// CHECK:         %[[R:.*]] = arith.maximumf %[[S]], %[[A]] : f32
// CHECK:         %[[B:.*]] = vector.broadcast %[[R]] : f32 to vector<1xf32>
// CHECK:         return %[[B]]
func.func @row_reduction(%v: vector<1x16xf32>, %acc: vector<1xf32>) -> vector<1xf32> {
  %0 = vector.multi_reduction <maximumf>, %v, %acc [1] : vector<1x16xf32> to vector<1xf32>
  return %0 : vector<1xf32>
}

// -----

// A 1-D row with a scalar accumulator: the same tree, then one add.

// CHECK-LABEL: func.func @row_reduction_scalar
// CHECK-SAME:    (%[[V:.*]]: vector<8xf32>, %[[ACC:.*]]: f32)
// CHECK-NOT:     vector.multi_reduction
// CHECK:         arith.addf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:         arith.addf %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK:         %[[M1:.*]] = arith.addf %{{.*}}, %{{.*}} : vector<1xf32>
// CHECK:         %[[S:.*]] = vector.extract %[[M1]][0] : f32 from vector<1xf32>
// CHECK:         %[[R:.*]] = arith.addf %[[S]], %[[ACC]] : f32
// CHECK:         return %[[R]]
func.func @row_reduction_scalar(%v: vector<8xf32>, %acc: f32) -> f32 {
  %0 = vector.multi_reduction <add>, %v, %acc [0] : vector<8xf32> to f32
  return %0 : f32
}

// -----

// A batched contraction's tile as the vectorizer leaves it: the product of a
// broadcast column of A and a row of B on vector<1x8x32x1xf32> (unit batch
// and reduction dimensions). The unit dimensions are dropped, so the product
// is an 8 x 32 multiply (8 rows of 32 lanes for LLVM), not 256 one-lane
// multiplies of vector<8x32x1xf32>.

// CHECK-LABEL: func.func @unit_dims
// CHECK-NOT:     32x1xf32>
// CHECK:         vector.load %{{.*}} : memref<64x32xf32>, vector<32xf32>
// CHECK-NOT:     32x1xf32>
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : vector<8x32xf32>
// CHECK-NOT:     arith.mulf
// CHECK-NOT:     32x1xf32>
// CHECK:         return
func.func @unit_dims(%m: memref<8x64xf32>, %n: memref<64x32xf32>, %k: index, %acc: vector<8x32xf32>) -> vector<8x32xf32> {
  %c0 = arith.constant 0 : index
  %p = ub.poison : f32
  %a = vector.transfer_read %m[%c0, %k], %p {in_bounds = [true, true, true, true], permutation_map = affine_map<(d0, d1) -> (0, d0, 0, d1)>} : memref<8x64xf32>, vector<1x8x32x1xf32>
  %b = vector.transfer_read %n[%k, %c0], %p {in_bounds = [true, true, true, true], permutation_map = affine_map<(d0, d1) -> (0, 0, d1, d0)>} : memref<64x32xf32>, vector<1x8x32x1xf32>
  %x = arith.mulf %a, %b : vector<1x8x32x1xf32>
  %s = vector.shape_cast %x : vector<1x8x32x1xf32> to vector<8x32xf32>
  %r = arith.addf %acc, %s : vector<8x32xf32>
  return %r : vector<8x32xf32>
}

// -----

// The broadcast operand of a 6 x 16 register tile read where its 6 elements
// are contiguous (im2col'd pixels): one load per element, each broadcast
// across the lanes (vbroadcastss), not one vector<6> load whose elements
// are then splat by shuffles in registers the tile needs.

// CHECK-LABEL: func.func @splat_read_elements
// CHECK-SAME:    (%[[M:.*]]: memref<4x6xf32>, %[[K:.*]]: index
// CHECK-NOT:     vector<6xf32>
// CHECK-DAG:     vector.load %[[M]][%[[K]], %[[C0:.*]]] : memref<4x6xf32>, vector<1xf32>
// CHECK-DAG:     vector.load %[[M]][%[[K]], %[[C1:.*]]] : memref<4x6xf32>, vector<1xf32>
// CHECK-DAG:     vector.load %[[M]][%[[K]], %[[C2:.*]]] : memref<4x6xf32>, vector<1xf32>
// CHECK-DAG:     vector.load %[[M]][%[[K]], %[[C3:.*]]] : memref<4x6xf32>, vector<1xf32>
// CHECK-DAG:     vector.load %[[M]][%[[K]], %[[C4:.*]]] : memref<4x6xf32>, vector<1xf32>
// CHECK-DAG:     vector.load %[[M]][%[[K]], %[[C5:.*]]] : memref<4x6xf32>, vector<1xf32>
// CHECK-DAG:     %[[C0]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4]] = arith.constant 4 : index
// CHECK-DAG:     %[[C5]] = arith.constant 5 : index
// CHECK-NOT:     vector<6xf32>
// CHECK:         return
func.func @splat_read_elements(%m: memref<4x6xf32>, %k: index, %acc: vector<6x16xf32>, %b: vector<16xf32>) -> vector<6x16xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%k, %c0], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, 0)>} : memref<4x6xf32>, vector<6x16xf32>
  %bb = vector.broadcast %b : vector<16xf32> to vector<6x16xf32>
  %r = vector.fma %v, %bb, %acc : vector<6x16xf32>
  return %r : vector<6x16xf32>
}

// -----

// More elements than a register tile has rows (16) are loaded as one
// vector.

// CHECK-LABEL: func.func @splat_read_many
// CHECK:         vector.load %{{.*}} : memref<4x16xf32>, vector<16xf32>
func.func @splat_read_many(%m: memref<4x16xf32>, %k: index) -> vector<16x8xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%k, %c0], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, 0)>} : memref<4x16xf32>, vector<16x8xf32>
  return %v : vector<16x8xf32>
}

// -----

// A max pool's window: the accumulator starts at -inf and only takes the max
// of itself and a number, so it is never NaN and each maxnumf becomes the
// compare and select x86's max instruction computes (x > acc ? x : acc).

// CHECK-LABEL: func.func @max_of_number
// CHECK-SAME:    (%[[M:.*]]: memref<3x16xf32>)
// CHECK:         scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<16xf32>)
// CHECK:           %[[X0:.*]] = vector.load %[[M]]
// CHECK:           %[[GT0:.*]] = arith.cmpf ogt, %[[X0]], %[[ACC]] : vector<16xf32>
// CHECK:           %[[S0:.*]] = arith.select %[[GT0]], %[[X0]], %[[ACC]]
// CHECK:           %[[X1:.*]] = vector.load %[[M]]
// CHECK:           %[[GT1:.*]] = arith.cmpf ogt, %[[X1]], %[[S0]] : vector<16xf32>
// CHECK:           %[[S1:.*]] = arith.select %[[GT1]], %[[X1]], %[[S0]]
// CHECK:           scf.yield %[[S1]]
// CHECK-NOT:     arith.maxnumf
// CHECK:         %[[MIN:.*]] = arith.cmpf olt, %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-NOT:     arith.minnumf
func.func @max_of_number(%m: memref<3x16xf32>) -> (vector<16xf32>, vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %pad = arith.constant 0.0 : f32
  %init = arith.constant dense<0xFF800000> : vector<16xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (vector<16xf32>) {
    %x0 = vector.transfer_read %m[%i, %c0], %pad {in_bounds = [true]} : memref<3x16xf32>, vector<16xf32>
    %a0 = arith.maxnumf %acc, %x0 : vector<16xf32>
    %x1 = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true]} : memref<3x16xf32>, vector<16xf32>
    %a1 = arith.maxnumf %x1, %a0 : vector<16xf32>
    scf.yield %a1 : vector<16xf32>
  }
  %y = vector.transfer_read %m[%c1, %c0], %pad {in_bounds = [true]} : memref<3x16xf32>, vector<16xf32>
  %one = arith.constant dense<1.0> : vector<16xf32>
  %small = arith.minnumf %y, %one : vector<16xf32>
  return %r, %small : vector<16xf32>, vector<16xf32>
}

// -----

// Neither operand provably a number (a NaN in the initial value, a loaded
// value carried around the loop, an argument): maxnumf stays.

// CHECK-LABEL: func.func @max_maybe_nan
// CHECK-COUNT-3: arith.maxnumf
// CHECK-NOT:     arith.select
func.func @max_maybe_nan(%m: memref<3x16xf32>, %v: vector<16xf32>) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %pad = arith.constant 0.0 : f32
  %init = arith.constant dense<0x7FC00000> : vector<16xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (vector<16xf32>) {
    %x = vector.transfer_read %m[%i, %c0], %pad {in_bounds = [true]} : memref<3x16xf32>, vector<16xf32>
    %a = arith.maxnumf %acc, %x : vector<16xf32>
    scf.yield %a : vector<16xf32>
  }
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %s = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<16xf32>) {
    %x = vector.transfer_read %m[%i, %c0], %pad {in_bounds = [true]} : memref<3x16xf32>, vector<16xf32>
    %a = arith.maxnumf %acc, %x : vector<16xf32>
    %b = arith.addf %a, %x : vector<16xf32>
    scf.yield %b : vector<16xf32>
  }
  %y = vector.transfer_read %m[%c1, %c0], %pad {in_bounds = [true]} : memref<3x16xf32>, vector<16xf32>
  %t = arith.maxnumf %y, %v : vector<16xf32>
  return %r, %s, %t : vector<16xf32>, vector<16xf32>, vector<16xf32>
}

// -----

// A register tile of 2 x 8 rows (two row panels of 8) by 9 lanes (the
// pixels of a 13 x 13 image past its last whole register), 512 reduction
// steps: accumulated transposed, one vector of the 16 rows per lane. Each
// step reads the two panels' runs of 8 as one vector of 16 and each of the
// 9 lanes' elements broadcast: 9 multiply-adds of 16 lanes instead of 16 of
// 9. The accumulator is transposed in before the loop and back after it.

// CHECK-LABEL: func.func @narrow_tile
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<512x9xf32, strided<[169, 1]>>,
// CHECK-SAME:    %[[W:[a-z0-9]+]]: memref<2x512x8xf32>
// CHECK:         %[[R:.*]]:9 = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK:           vector.transfer_read %[[W]][%{{.*}}, %[[K]], %{{.*}}]{{.*}} : memref<2x512x8xf32>, vector<2x8xf32>
// CHECK-COUNT-2:   vector.insert_strided_slice %{{.*}} : vector<8xf32> into vector<16xf32>
// CHECK:           vector.load %[[X]][%[[K]], %{{.*}}] : memref<512x9xf32, strided<[169, 1]>>, vector<f32>
// CHECK-COUNT-9:   arith.mulf %{{.*}} : vector<16xf32>
// CHECK:           scf.yield {{.*}} : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
// CHECK:         }
// CHECK:         return %{{.*}} : vector<1x2x8x9xf32>
func.func @narrow_tile(%x: memref<512x9xf32, strided<[169, 1]>>, %w: memref<2x512x8xf32>, %init: vector<1x2x8x9xf32>) -> vector<1x2x8x9xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %pad = arith.constant 0.0 : f32
  %r = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %init) -> (vector<1x2x8x9xf32>) {
    %xv = vector.transfer_read %x[%k, %c0], %pad {in_bounds = [true, true, true, true, true], permutation_map = affine_map<(d0, d1) -> (0, 0, 0, d1, d0)>} : memref<512x9xf32, strided<[169, 1]>>, vector<1x2x8x9x1xf32>
    %wv = vector.transfer_read %w[%c0, %k, %c0], %pad {in_bounds = [true, true, true, true, true], permutation_map = affine_map<(d0, d1, d2) -> (0, d0, d2, 0, d1)>} : memref<2x512x8xf32>, vector<1x2x8x9x1xf32>
    %p = arith.mulf %xv, %wv : vector<1x2x8x9x1xf32>
    %s = vector.shape_cast %p : vector<1x2x8x9x1xf32> to vector<1x2x8x9xf32>
    %a = arith.addf %acc, %s : vector<1x2x8x9xf32>
    scf.yield %a : vector<1x2x8x9xf32>
  }
  return %r : vector<1x2x8x9xf32>
}

// -----

// The same tile over 64 steps: the transposes would cost more than the FMAs
// they save; the loop keeps its accumulator.

// CHECK-LABEL: func.func @narrow_tile_short
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<2x8x9xf32>) {
// CHECK-NOT:       vector<16xf32>
// CHECK:         return
func.func @narrow_tile_short(%x: memref<64x9xf32, strided<[169, 1]>>, %w: memref<2x64x8xf32>, %init: vector<1x2x8x9xf32>) -> vector<1x2x8x9xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  %r = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (vector<1x2x8x9xf32>) {
    %xv = vector.transfer_read %x[%k, %c0], %pad {in_bounds = [true, true, true, true, true], permutation_map = affine_map<(d0, d1) -> (0, 0, 0, d1, d0)>} : memref<64x9xf32, strided<[169, 1]>>, vector<1x2x8x9x1xf32>
    %wv = vector.transfer_read %w[%c0, %k, %c0], %pad {in_bounds = [true, true, true, true, true], permutation_map = affine_map<(d0, d1, d2) -> (0, d0, d2, 0, d1)>} : memref<2x64x8xf32>, vector<1x2x8x9x1xf32>
    %p = arith.mulf %xv, %wv : vector<1x2x8x9x1xf32>
    %s = vector.shape_cast %p : vector<1x2x8x9x1xf32> to vector<1x2x8x9xf32>
    %a = arith.addf %acc, %s : vector<1x2x8x9xf32>
    scf.yield %a : vector<1x2x8x9xf32>
  }
  return %r : vector<1x2x8x9xf32>
}

// -----

// An exp on a 7 x 2 tile (rows narrower than a register, one register in
// all) runs on the tile's 1-D form, one polynomial on one register instead
// of one per row on two lanes; the add after it joins the flat chain. The
// multiply before it, on its own, stays per row (reshaping costs more).
// CHECK-LABEL: func.func @narrow_rows
// CHECK:         %[[M:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<7x2xf32>
// CHECK:         %[[E:.*]] = math.exp %{{.*}} : vector<14xf32>
// CHECK:         %[[S:.*]] = arith.addf %[[E]], %{{.*}} : vector<14xf32>
// CHECK-NOT:     math.exp
// CHECK:         vector.extract_strided_slice %[[S]]
func.func @narrow_rows(%a: vector<7x2xf32>, %b: vector<7x2xf32>) -> vector<7x2xf32> {
  %m = arith.mulf %a, %b : vector<7x2xf32>
  %e = math.exp %m : vector<7x2xf32>
  %s = arith.addf %e, %m : vector<7x2xf32>
  return %s : vector<7x2xf32>
}

// -----

// A lone cheap op, a loop-carried accumulator, rows of a whole register
// and tiles of more than one register: as they are.
// CHECK-LABEL: func.func @kept_rows
// CHECK:         arith.maximumf %{{.*}}, %{{.*}} : vector<7x2xf32>
// CHECK:         scf.for
// CHECK:           math.exp %{{.*}} : vector<7x2xf32>
// CHECK:         arith.addf %{{.*}}, %{{.*}} : vector<2x16xf32>
// CHECK:         arith.addf %{{.*}}, %{{.*}} : vector<9x2xf32>
func.func @kept_rows(%a: vector<7x2xf32>, %w: vector<2x16xf32>,
                     %t: vector<9x2xf32>, %n: index)
    -> (vector<7x2xf32>, vector<7x2xf32>, vector<2x16xf32>, vector<9x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : vector<7x2xf32>
  %m = arith.mulf %a, %a : vector<7x2xf32>
  %r = arith.maximumf %m, %z : vector<7x2xf32>
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> vector<7x2xf32> {
    %e = math.exp %acc : vector<7x2xf32>
    scf.yield %e : vector<7x2xf32>
  }
  %x = math.exp %w : vector<2x16xf32>
  %y = math.exp %t : vector<9x2xf32>
  %x2 = arith.addf %x, %w : vector<2x16xf32>
  %y2 = arith.addf %y, %t : vector<9x2xf32>
  return %r, %l, %x2, %y2 : vector<7x2xf32>, vector<7x2xf32>, vector<2x16xf32>, vector<9x2xf32>
}
