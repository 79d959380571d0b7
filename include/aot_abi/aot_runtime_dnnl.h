/*===- aot_runtime_dnnl.h - Library offload to oneDNN -------------*- C -*-===*
 *
 * The kernel of aot_runtime_dnnl, which objects compiled with
 * `aotc --offload conv=onednn` call through the extern-kernel contract
 * (aot_extern.h). It computes with the oneDNN (2.x or 3.x) the program
 * links; when oneDNN runs on OpenMP, the call's thread count is the
 * calling thread's OpenMP setting for the call's duration.
 *
 * aot_dnnl_conv2d_f32: inputs X (N x C x H x W), W (M x C/group x KH x KW)
 *   [, B (M)]; attributes strides, pads (top, left, bottom, right),
 *   dilations, group. One oneDNN convolution on these plain layouts; no
 *   scratch of the pool (oneDNN allocates what its kernels need). Returns
 *   AOT_ERROR_SHAPE for shapes that do not make a convolution and
 *   AOT_ERROR_INTERNAL when oneDNN fails.
 *
 * Plain C99; functions are only ever added.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AOT_ABI_AOT_RUNTIME_DNNL_H
#define AOT_ABI_AOT_RUNTIME_DNNL_H

#include "aot_abi/aot_extern.h"

#ifdef __cplusplus
extern "C" {
#endif

aot_status_t aot_dnnl_conv2d_f32(const aot_extern_tensor_t *inputs,
                                 int32_t num_inputs,
                                 const aot_extern_tensor_t *outputs,
                                 int32_t num_outputs, const char *attributes,
                                 void *scratch, size_t scratch_bytes,
                                 aot_stream_t stream);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AOT_ABI_AOT_RUNTIME_DNNL_H */
